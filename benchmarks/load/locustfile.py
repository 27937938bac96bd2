"""Hangar load test users (run by benchmarks/load/run_load.py; see its docstring and docs/benchmarks.md).

Four kinds of users, in fixed shares of the total (50 users: 20 / 10 / 12 / 8):

- Browser (anonymous): the home page, catalog pages with search and filters, card pages, rules, the public gallery
  (HTML), the catalog API (/api/systems/..., /api/cards/...) and, now and then, the anchor GET /api/ping/.
- Checker (anonymous): POST /api/validate/ with the bundled sample lists of all three games (and the same lists
  with an unknown card or a doubled entry), in Japanese or English; now and then POST /api/odds/.
- Builder (signed in, half by session + CSRF token, half by API token): saves lists (POST /api/lists/), edits them
  with the version they read (PATCH/PUT -> 200), sometimes from a stale copy on purpose (-> 409 list.conflict, then
  merged and saved again with the current version), reads, validates, exports, forks gallery lists, trims old ones.
- Simulator (signed in, API token): starts small runs (100-400 games; a saved list or a posted document; random
  seeds, so runs are new, and now and then a shared seed so a stored result is reused), polls the run every second
  until it is done, thinks, and only then starts the next (the per-user limit of concurrent runs is respected).

Every request states the status it expects; anything else (a 429 or 5xx included) is a failure. Each user waits
HANGAR_LOAD_THINK (MIN:MAX seconds) between tasks. Every response time is kept, and at exit the exact percentiles
overall and per endpoint group, and the simulations' turnaround, are written to HANGAR_LOAD_EXTRA (JSON).
"""
from __future__ import annotations

import copy
import itertools
import json
import math
import os
import random
import time
from pathlib import Path

from locust import HttpUser, events, task

PACKAGES = Path(os.environ.get("HANGAR_LOAD_PACKAGES", Path(__file__).resolve().parents[2] / "cards" / "packages"))
ACCOUNTS_FILE = os.environ.get("HANGAR_LOAD_ACCOUNTS", "")
EXTRA_FILE = os.environ.get("HANGAR_LOAD_EXTRA", "")
THINK_MIN, THINK_MAX = (float(x) for x in os.environ.get("HANGAR_LOAD_THINK", "0.5:2.5").split(":"))
USERS = int(os.environ.get("HANGAR_LOAD_USERS", "50"))
RNG = random.Random(int(os.environ.get("HANGAR_LOAD_SEED", "2026")))
POLL_SECONDS = 1.0
RUN_TIMEOUT = 180.0  # a run not done by then is a failure
MAX_LISTS_PER_BUILDER = 6

SYSTEMS = ("hagmi", "mwda", "warcaster")


# --- data: the bundled packages and sample lists ------------------------------------------------------------


def _load_catalog() -> dict:
    catalog = {}
    for system in SYSTEMS:
        cards, opponents, categories, factions = [], [], set(), set()
        for package in sorted((PACKAGES / system).glob("*.json")):
            data = json.loads(package.read_text(encoding="utf-8"))
            cards += [card["code"] for card in data["cards"]]
            opponents += [opponent["slug"] for opponent in data.get("opponents", [])]
            categories |= {card.get("category") or card.get("kind") for card in data["cards"]} - {None}
            factions |= {card["faction"] for card in data["cards"] if card.get("faction")}
        lists = {path.stem: json.loads(path.read_text(encoding="utf-8"))
                 for path in sorted((PACKAGES / system / "lists").glob("*.json"))}
        catalog[system] = {"cards": cards, "opponents": opponents, "categories": sorted(categories),
                           "factions": sorted(factions), "lists": lists}
    return catalog


CATALOG = _load_catalog()
ALL_LISTS = [(system, name, doc) for system in SYSTEMS for name, doc in CATALOG[system]["lists"].items()]
SEARCH_TERMS = {"hagmi": ["HS-0", "補給", "ア", "1"], "mwda": ["MW-0", "Wolf", "ハイランド", "2"],
                "warcaster": ["WC-", "Lancer", "ジャック", "K0"]}
# Small runs: (system, opponents, policies, game counts). Warcaster greedy plays ~130 games/s: fewer games there.
SIM_MENU = [
    ("hagmi", ["goldfish", "sample-vanguard", "sample-fortress"], ["greedy", "random"], [100, 200, 300, 400]),
    ("hagmi", ["coop-ironshell-cradle", "coop-abyssal-ark"], ["random"], [100, 150]),
    ("mwda", ["goldfish", "republic-knight-guard", "steel-wolves-pack", "highland-line"], ["greedy", "random"],
     [100, 200, 300]),
    ("warcaster", ["goldfish", "isa-thunder-lancers", "marcher-dust-raiders"], ["random"], [100, 200, 300]),
    ("warcaster", ["goldfish", "isa-starsteel-vanguard"], ["greedy"], [100, 150]),
]

SHARED_QUESTIONS = [
    {"document": CATALOG["hagmi"]["lists"]["akane-assault"], "opponent": "goldfish", "policy": "greedy", "games": 200,
     "seed": 1},
    {"document": CATALOG["mwda"]["lists"]["highland-line"], "opponent": "goldfish", "policy": "greedy", "games": 100,
     "seed": 1},
    {"document": CATALOG["warcaster"]["lists"]["isa-thunder-lancers"], "opponent": "goldfish", "policy": "random",
     "games": 100, "seed": 1},
]

_accounts = json.loads(Path(ACCOUNTS_FILE).read_text()) if ACCOUNTS_FILE else []
_account_iter = iter(_accounts)


def next_account() -> dict:
    try:
        return next(_account_iter)
    except StopIteration:
        raise RuntimeError(f"more signed-in users than accounts in {ACCOUNTS_FILE}") from None


def shares(total: int) -> tuple[int, int, int, int]:
    """Browsers, checkers, builders, simulators: 40 / 20 / 24 / 16 % of the users (20 / 10 / 12 / 8 of 50)."""
    simulators, builders, checkers = round(total * 0.16), round(total * 0.24), round(total * 0.20)
    return total - simulators - builders - checkers, checkers, builders, simulators


SHARES = shares(USERS)


def think(_user=None) -> float:
    return RNG.uniform(THINK_MIN, THINK_MAX)


# --- measurements -------------------------------------------------------------------------------------------

GROUPS = [  # first match wins
    ("simulation outcomes (failures only)", lambda t, n: t == "SIM"),
    ("anchor: GET /api/ping/", lambda t, n: n.startswith("/api/ping/")),
    ("sign-in (password check)", lambda t, n: n.startswith("/api/auth/")),
    ("simulations API", lambda t, n: n.startswith("/api/simulations/")),
    ("validate (POST /api/validate/, /api/odds/)", lambda t, n: n.startswith(("/api/validate/", "/api/odds/"))),
    ("lists API (create, edit, 409, read, export, fork)", lambda t, n: n.startswith("/api/lists/")),
    ("catalog API", lambda t, n: n.startswith(("/api/cards/", "/api/systems/"))),
    ("HTML pages", lambda t, n: not n.startswith("/api/")),
]
TIMES: dict[str, list[float]] = {group: [] for group, _ in GROUPS}
FAILS: dict[str, int] = {group: 0 for group, _ in GROUPS}
SPAN = {"first": None, "last": None}
TIMELINE: list[tuple[float, float, str]] = []  # (sent at, response time ms, group)
TIMELINE_STEP = 5  # seconds per row of the timeline
# Steady state: the requests sent from STEADY_GRACE seconds after the last user started (its sign-in and first
# lists done).
STEADY_GRACE = 5.0
STEADY = {"from": None}
SIMS = {"started": 0, "reused": 0, "done": 0, "bad": 0, "turnaround_ms": [], "games": []}


@events.spawning_complete.add_listener
def _spawned(user_count, **_kw):
    STEADY["from"] = STEADY["from"] or time.time() + STEADY_GRACE


def group_of(request_type: str, name: str) -> str:
    for group, match in GROUPS:
        if match(request_type, name):
            return group
    return "other"


@events.request.add_listener
def _record(request_type, name, response_time, response_length, exception=None, **_kw):
    group = group_of(request_type, name)
    TIMES.setdefault(group, []).append(response_time)
    if exception is not None:
        FAILS[group] = FAILS.get(group, 0) + 1
    now = time.time()
    SPAN["first"] = SPAN["first"] or now - response_time / 1000
    SPAN["last"] = now
    if request_type != "SIM":
        TIMELINE.append((now - response_time / 1000, response_time, group))


def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    return values[max(0, math.ceil(q / 100 * len(values)) - 1)]  # nearest rank


@events.quitting.add_listener
def _write_extra(environment, **_kw):
    if not EXTRA_FILE:
        return
    groups = {}
    for group, values in TIMES.items():
        if values:
            ordered = sorted(values)
            groups[group] = {"count": len(ordered), "failures": FAILS.get(group, 0), "p50": _pct(ordered, 50),
                             "p95": _pct(ordered, 95), "p99": _pct(ordered, 99), "max": ordered[-1]}
    everything = sorted(itertools.chain.from_iterable(
        values for group, values in TIMES.items() if not group.startswith("simulation outcomes")))
    turnaround = sorted(SIMS["turnaround_ms"])
    timeline = []
    if TIMELINE:
        start = min(row[0] for row in TIMELINE)
        buckets: dict[int, list[float]] = {}
        for sent, response_time, _group in TIMELINE:
            buckets.setdefault(int((sent - start) // TIMELINE_STEP), []).append(response_time)
        for index in sorted(buckets):
            ordered = sorted(buckets[index])
            timeline.append({"from_s": index * TIMELINE_STEP, "requests": len(ordered), "p50": _pct(ordered, 50),
                             "p95": _pct(ordered, 95), "max": ordered[-1]})
    in_steady = [row for row in TIMELINE if STEADY["from"] is not None and row[0] >= STEADY["from"]]
    steady = sorted(row[1] for row in in_steady)
    for group, row in groups.items():
        ordered = sorted(response_time for _sent, response_time, g in in_steady if g == group)
        row["steady"] = {"count": len(ordered), "p50": _pct(ordered, 50), "p95": _pct(ordered, 95),
                         "p99": _pct(ordered, 99)}
    steady_span = (SPAN["last"] - STEADY["from"]) if STEADY["from"] and SPAN["last"] else 0
    extra = {
        "timeline": timeline,
        "steady": {"from_s": (STEADY["from"] - SPAN["first"]) if STEADY["from"] and SPAN["first"] else None,
                   "count": len(steady), "requests_per_s": len(steady) / steady_span if steady_span > 0 else None,
                   "p50": _pct(steady, 50), "p95": _pct(steady, 95), "p99": _pct(steady, 99),
                   "max": steady[-1] if steady else None},
        "seconds": (SPAN["last"] - SPAN["first"]) if SPAN["first"] else 0,
        "overall": {"count": len(everything), "p50": _pct(everything, 50), "p95": _pct(everything, 95),
                    "p99": _pct(everything, 99)},
        "groups": groups,
        "simulations": {"started": SIMS["started"], "reused": SIMS["reused"], "done": SIMS["done"],
                        "bad": SIMS["bad"], "p50_ms": _pct(turnaround, 50), "p95_ms": _pct(turnaround, 95),
                        "max_ms": turnaround[-1] if turnaround else None,
                        "games_min": min(SIMS["games"], default=None), "games_max": max(SIMS["games"], default=None)},
    }
    Path(EXTRA_FILE).write_text(json.dumps(extra, indent=1))


# --- helpers ------------------------------------------------------------------------------------------------


class HangarUser(HttpUser):
    abstract = True
    wait_time = think

    def expect(self, method: str, path: str, status: int | tuple, *, name: str | None = None, check=None,
               **kwargs):
        """One request that must answer `status` (and pass `check(response)` if given); returns the response or
        None when it failed (the failure is recorded with what came back)."""
        wanted = status if isinstance(status, tuple) else (status,)
        with self.client.request(method, path, name=name or path, catch_response=True, **kwargs) as response:
            if response.status_code not in wanted:
                why = repr(response.error) if response.status_code == 0 else repr((response.text or "")[:300])
                response.failure(f"expected {wanted}, got {response.status_code}: {why}")
                return None
            if check is not None:
                problem = check(response)
                if problem:
                    response.failure(problem)
                    return None
            response.success()
            return response


def json_has(*keys):
    def check(response):
        try:
            body = response.json()
        except ValueError:
            return f"not JSON: {response.text[:200]!r}"
        missing = [key for key in keys if key not in body]
        return f"missing {missing} in {str(body)[:200]}" if missing else None
    return check


def html_check(response):
    if "text/html" not in response.headers.get("Content-Type", ""):
        return f"expected HTML, got {response.headers.get('Content-Type')}"
    return None


# --- anonymous users ----------------------------------------------------------------------------------------


class Browser(HangarUser):
    """Looks around the catalogs (pages and API) without an account."""

    fixed_count = SHARES[0]

    @task(1)
    def home(self):
        self.expect("GET", "/", 200, check=html_check)

    @task(4)
    def catalog_page(self):
        system = RNG.choice(SYSTEMS)
        info = CATALOG[system]
        params = {}
        roll = RNG.random()
        if roll < 0.3:
            params["q"] = RNG.choice(SEARCH_TERMS[system])
        elif roll < 0.55:
            params["category"] = RNG.choice(info["categories"])
        elif roll < 0.7 and info["factions"]:
            params["faction"] = RNG.choice(info["factions"])
        elif roll < 0.8:
            params["ordering"] = RNG.choice(["name", "-cost", "code"])
        if RNG.random() < 0.15:
            params["page"] = 2
        headers = {"HX-Request": "true"} if RNG.random() < 0.3 else {}  # htmx swaps only the results
        self.expect("GET", f"/catalog/{system}/", 200, name="/catalog/[system]/", params=params, headers=headers,
                    check=html_check)

    @task(4)
    def card_page(self):
        system = RNG.choice(SYSTEMS)
        code = RNG.choice(CATALOG[system]["cards"])
        self.expect("GET", f"/catalog/{system}/{code}/", 200, name="/catalog/[system]/[code]/", check=html_check)

    @task(1)
    def rules_page(self):
        self.expect("GET", f"/rules/{RNG.choice(SYSTEMS)}/", 200, name="/rules/[system]/", check=html_check)

    @task(1)
    def gallery_page(self):
        self.expect("GET", "/lists/gallery/", 200, check=html_check)

    @task(2)
    def api_systems(self):
        system = RNG.choice(SYSTEMS)
        path, name = RNG.choice([
            ("/api/systems/", "/api/systems/"),
            (f"/api/systems/{system}/", "/api/systems/[system]/"),
            (f"/api/systems/{system}/formats/", "/api/systems/[system]/formats/"),
            (f"/api/systems/{system}/opponents/", "/api/systems/[system]/opponents/"),
        ])
        self.expect("GET", path, 200, name=name)

    @task(3)
    def api_cards(self):
        system = RNG.choice(SYSTEMS)
        params = {"system": system}
        if RNG.random() < 0.5:
            params["q"] = RNG.choice(SEARCH_TERMS[system])
        elif RNG.random() < 0.5:
            params["category"] = RNG.choice(CATALOG[system]["categories"])
        self.expect("GET", "/api/cards/", 200, name="/api/cards/?system=...", params=params,
                    check=json_has("count", "results"))

    @task(3)
    def api_card(self):
        system = RNG.choice(SYSTEMS)
        code = RNG.choice(CATALOG[system]["cards"])
        self.expect("GET", f"/api/cards/{system}/{code}/", 200, name="/api/cards/[system]/[code]/")

    @task(3)
    def ping(self):
        self.expect("GET", "/api/ping/", 200)


class Checker(HangarUser):
    """Pastes lists into the validator without an account."""

    fixed_count = SHARES[1]

    @task(6)
    def validate_sample(self):
        system, _name, doc = RNG.choice(ALL_LISTS)
        self.expect("POST", "/api/validate/", 200, name="/api/validate/", params={"lang": RNG.choice(["ja", "en"])},
                    json=doc, check=json_has("legal", "violations", "summary"))

    @task(2)
    def validate_broken(self):
        """The same lists with an unknown card and a doubled entry: still 200, with violations."""
        system, _name, doc = RNG.choice(ALL_LISTS)
        doc = copy.deepcopy(doc)
        section = next(iter(doc["sections"]))
        entries = doc["sections"][section]
        entries.append({"card": "NO-SUCH-CARD", "qty": 1})
        if entries:
            entries.append(dict(entries[0]))

        def check(response):
            body = response.json()
            if body.get("legal") is not False or not body.get("violations"):
                return f"expected an illegal list with violations, got {str(body)[:200]}"
            return None
        self.expect("POST", "/api/validate/", 200, name="/api/validate/ (illegal)", json=doc, check=check)

    @task(1)
    def odds(self):
        doc = CATALOG["hagmi"]["lists"]["akane-assault"]
        weapons = [entry["card"] for entry in doc["sections"]["weapons"]]
        body = {"document": doc, "deck": "weapons", "draws": RNG.choice([2, 3, 5]),
                "groups": [{"cards": RNG.sample(weapons, 2), "at_least": 1}]}
        self.expect("POST", "/api/odds/", 200, json=body, check=json_has("probability", "exact"))


# --- signed-in users ----------------------------------------------------------------------------------------


class SignedIn(HangarUser):
    abstract = True
    use_session = False

    def on_start(self):
        self.account = next_account()
        self.csrf = None
        if self.use_session:
            response = self.expect("POST", "/api/auth/login/", 200, json={
                "username": self.account["username"], "password": self.account["password"]})
            self.csrf = self.client.cookies.get("csrftoken")
            if response is not None and not self.csrf:  # no cookie from the login: get one from a page with a form
                self.expect("GET", "/lists/new/", 200, name="/lists/new/")
                self.csrf = self.client.cookies.get("csrftoken")
        else:
            self.client.headers["Authorization"] = f"Token {self.account['token']}"

    def write(self, method, path, status, **kwargs):
        headers = dict(kwargs.pop("headers", {}) or {})
        if self.csrf:
            headers["X-CSRFToken"] = self.csrf
        return self.expect(method, path, status, headers=headers, **kwargs)

    def create_list(self, doc: dict, visibility: str | None = None) -> dict | None:
        body = {"document": doc, "notes": "load test", "visibility": visibility or RNG.choice(
            ["private", "unlisted", "public"])}
        response = self.write("POST", "/api/lists/", 201, json=body, check=json_has("slug", "version", "validation"))
        return response.json() if response is not None else None


class Builder(SignedIn):
    """Builds lists: saves, edits with optimistic concurrency (handling 409), reads, exports, forks, trims."""

    fixed_count = SHARES[2]
    _sessions = itertools.cycle([True, False])

    def on_start(self):
        self.use_session = next(Builder._sessions)
        super().on_start()
        self.lists: list[dict] = []  # {"slug", "version", "document"}
        self.new_list()

    def new_list(self):
        _system, _name, doc = RNG.choice(ALL_LISTS)
        created = self.create_list(copy.deepcopy(doc))
        if created is not None:
            self.lists.append({"slug": created["slug"], "version": created["version"],
                               "document": created["document"], "visibility": created["visibility"]})

    def pick(self) -> dict | None:
        return RNG.choice(self.lists) if self.lists else None

    @task(2)
    def create(self):
        self.new_list()
        if len(self.lists) > MAX_LISTS_PER_BUILDER:
            old = self.lists.pop(0)
            self.write("DELETE", f"/api/lists/{old['slug']}/", 204, name="/api/lists/[slug]/")

    def _save(self, item: dict, body: dict, method: str, version: int, expect=200):
        return self.write(method, f"/api/lists/{item['slug']}/", expect, name=f"/api/lists/[slug]/ ({method}"
                          f"{', stale -> 409' if expect == 409 else ''})", json={**body, "version": version})

    def _edited_document(self, item: dict) -> dict:
        doc = copy.deepcopy(item["document"])
        doc["name"] = f"{doc.get('name') or 'list'}"[:150].split(" #")[0] + f" #{RNG.randrange(1000)}"
        for entries in doc["sections"].values():
            if entries:
                entry = RNG.choice(entries)
                entry["qty"] = 1 + entry["qty"] % 3
                break
        return doc

    @task(4)
    def edit(self):
        """Edit the copy we hold, sending the version we read: 200 and a new version."""
        item = self.pick()
        if item is None:
            return
        if RNG.random() < 0.5:
            response = self._save(item, {"notes": f"edited at {time.time():.0f}",
                                         "visibility": RNG.choice(["private", "unlisted", "public"])},
                                  "PATCH", item["version"])
        else:
            response = self._save(item, {"document": self._edited_document(item)}, "PUT", item["version"])
        if response is not None:
            body = response.json()
            item.update(version=body["version"], document=body["document"], visibility=body["visibility"])

    @task(1)
    def edit_stale_copy(self):
        """Save from an out-of-date tab (version - 1): 409 with the current list; merge and save with its version."""
        item = self.pick()
        if item is None or item["version"] < 2:
            return

        def conflict(response):
            error = response.json().get("error", {})
            if error.get("code") != "list.conflict" or "current" not in error:
                return f"expected list.conflict with the current list, got {str(error)[:200]}"
            return None
        response = self._save(item, {"notes": "from a stale tab"}, "PATCH", item["version"] - 1, expect=409)
        if response is None:
            return
        current = response.json()["error"]["current"]
        response = self._save(item, {"notes": "merged after a conflict"}, "PATCH", current["version"])
        if response is not None:
            body = response.json()
            item.update(version=body["version"], document=body["document"], visibility=body["visibility"])

    @task(3)
    def read(self):
        item = self.pick()
        if item is None:
            return
        path, name = RNG.choice([
            (f"/api/lists/{item['slug']}/", "/api/lists/[slug]/"),
            (f"/api/lists/{item['slug']}/validation/?lang={RNG.choice(['ja', 'en'])}", "/api/lists/[slug]/validation/"),
            (f"/api/lists/{item['slug']}/export/?as={RNG.choice(['text', 'json'])}", "/api/lists/[slug]/export/"),
            (f"/api/lists/{item['slug']}/revisions/", "/api/lists/[slug]/revisions/"),
        ])
        self.expect("GET", path, 200, name=name)

    @task(2)
    def my_lists(self):
        self.expect("GET", "/api/lists/", 200, name="/api/lists/ (mine)", check=json_has("count", "results"))

    @task(1)
    def fork_from_gallery(self):
        response = self.expect("GET", "/api/lists/?scope=public", 200, name="/api/lists/?scope=public",
                               check=json_has("results"))
        if response is None:
            return
        others = [row for row in response.json()["results"] if row["owner"] != self.account["username"]]
        if others:
            self.write("POST", f"/api/lists/{RNG.choice(others)['slug']}/fork/", 201, name="/api/lists/[slug]/fork/")

    @task(2)
    def pages(self):
        """Signed-in pages: session users only (the web UI); token users read the share page."""
        item = self.pick()
        if self.use_session:
            path, name = RNG.choice([("/lists/", "/lists/ (mine, HTML)"),
                                     (f"/lists/{item['slug']}/edit/" if item else "/lists/",
                                      "/lists/[slug]/edit/ (editor, HTML)" if item else "/lists/ (mine, HTML)")])
        else:  # the share page of an unlisted or public list: pages know sessions only, a private list is a 404
            shared = [entry for entry in self.lists if entry["visibility"] != "private"]
            if not shared:
                return
            path, name = f"/lists/{RNG.choice(shared)['slug']}/", "/lists/[slug]/ (share page, HTML)"
        self.expect("GET", path, 200, name=name, check=html_check)


class Simulator(SignedIn):
    """Starts small simulations, one at a time, and follows each to its result."""

    fixed_count = SHARES[3]

    def on_start(self):
        super().on_start()
        self.saved = {}  # system -> (list slug, sample name)
        for system in SYSTEMS:
            name = RNG.choice(sorted(CATALOG[system]["lists"]))
            created = self.create_list(copy.deepcopy(CATALOG[system]["lists"][name]), visibility="private")
            if created is not None:
                self.saved[system] = (created["slug"], name)

    @task
    def simulate(self):
        if RNG.random() < 0.15:  # a question others ask too (same list, opponent, games, seed): a stored result
            body = dict(RNG.choice(SHARED_QUESTIONS))  # is reused, or the user's own identical run returned
        else:  # a new question: random seed, so the run is played
            system, opponents, policies, game_counts = RNG.choice(SIM_MENU)
            body = {"opponent": RNG.choice(opponents), "policy": RNG.choice(policies),
                    "games": RNG.choice(game_counts), "seed": RNG.randrange(1, 2**31)}
            if system in self.saved and RNG.random() < 0.5:
                body["list"] = self.saved[system][0]
            else:
                body["document"] = CATALOG[system]["lists"][RNG.choice(sorted(CATALOG[system]["lists"]))]
        started = time.monotonic()
        response = self.write("POST", "/api/simulations/", 202, name="/api/simulations/ (start)", json=body,
                              check=json_has("id", "status", "status_url"))
        if response is None:
            return
        run = response.json()
        SIMS["started"] += 1
        SIMS["games"].append(body["games"])
        SIMS["reused"] += bool(run.get("reused"))
        status = run["status"]
        while status in ("queued", "running"):
            if time.monotonic() - started > RUN_TIMEOUT:
                SIMS["bad"] += 1
                events.request.fire(request_type="SIM", name="run not done in time", response_time=0,
                                    response_length=0, exception=RuntimeError(f"run {run['id']} still {status}"),
                                    context={})
                return
            time.sleep(POLL_SECONDS)
            polled = self.expect("GET", f"/api/simulations/{run['id']}/", 200, name="/api/simulations/[id]/ (poll)",
                                 check=json_has("status", "progress"))
            if polled is None:
                return
            run = {**run, **polled.json()}
            status = run["status"]
        if status == "done":
            SIMS["done"] += 1
            SIMS["turnaround_ms"].append((time.monotonic() - started) * 1000)
        else:
            SIMS["bad"] += 1
            events.request.fire(request_type="SIM", name=f"run ended {status}", response_time=0, response_length=0,
                                exception=RuntimeError(f"run {run['id']} ended {status}: {run.get('error')}"),
                                context={})
