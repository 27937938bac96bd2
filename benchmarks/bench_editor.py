#!/usr/bin/env python3
"""Building the bundled 40-card HAGMI deck (akane-assault: 20 兵器 + 20 作戦, with its 5 damage and 2 秘策 cards:
47 cards in 26 entries) from an empty list in the list editor, in a real browser ("Measure"):

- the keystrokes and clicks it takes, three ways, side by side in one run:
  `clicks`  the mouse alone: each card's add button in the picker, once per copy, then Save (the reference: how
            the editor was used before the search box and paste);
  `type`    the search box: one click into it, then per entry "2 " when two copies are wanted, the fewest letters
            that make the card the first found (the start of a word of its English name, or of the name from that
            word on: what a person who knows the cards types; the UI is in English), Enter; then Save;
  `paste`   the paste box: one click into it, Ctrl+V of the list's text export (docs/list-formats.md), "Add these
            lines", Save;
  each build is checked: the saved list holds exactly the bundled deck;
- the time from a click on an add button to the legality panel updated and drawn (the new #legality in the page,
  then the next animation frame), p50 and p95 over every add click of the `clicks` builds, beside its reference: the
  same request sent by fetch() from the page (the network and the server alone, nothing swapped or drawn).

Usage (from the project root, after `python3 dev.py test` or `run` has made .venv):
    .venv/bin/python benchmarks/bench_editor.py [--rounds 3] [--modes clicks,type,paste] [--deck FILE] [--headed]

It makes its own SQLite database in a temporary folder, loads the bundled packages, starts gunicorn (2 workers,
DEBUG=1 so that static files are served without collectstatic; throttles off) on 127.0.0.1, drives Debian's
Chromium (/usr/bin/chromium) with Playwright at 1280×900, and prints a JSON report. Run benchmarks/bench_machine.py
beside it (docs/benchmarks.md, "Machines").
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from _server import free_port, wait_for  # benchmarks/_server.py (run from the repository root)

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / ".venv" / "bin" / "python"
GUNICORN = ROOT / ".venv" / "bin" / "gunicorn"
CHROMIUM = "/usr/bin/chromium"
DECK = ROOT / "cards" / "packages" / "hagmi" / "lists" / "akane-assault.json"
PASSWORD = "bench-Editor-pw-42"

# Run inside `manage.py shell`: a user, one empty HAGMI list per build, the deck's text export and its cards' names.
SETUP = """
import json, sys
from django.contrib.auth import get_user_model
from builder import services
from builder.listio.text_write import export_list_text
from cards.selectors import catalog_for
from cards.models import Card
deck = json.loads(open(%(deck)r, encoding="utf-8").read())
user = get_user_model().objects.create_user(username="bench", password=%(password)r)
empty = dict(deck, name="Bench", sections={name: [] for name in deck["sections"]})
slugs = [services.list_create(owner=user, document=dict(empty, name=f"Bench {n}"), visibility="private").slug
         for n in range(%(lists)d)]
codes = {entry["card"] for entry in sum(deck["sections"].values(), [])}
names = {c.code: (c.name_en or c.name) for c in Card.objects.filter(system__slug="hagmi", code__in=codes)}
print("BENCH" + json.dumps({"slugs": slugs, "text": export_list_text(deck, catalog_for("hagmi"), lang="en"),
                            "names": names}))
"""

# In every page: when each op button is clicked, and when each new legality panel is in the page and drawn.
PROBE = """
window.__bench = {clicks: [], panels: []};
document.addEventListener("click", (event) => {
  const button = event.target.closest && event.target.closest("button[name=op]");
  if (button) window.__bench.clicks.push({op: button.value, t: performance.now()});
}, true);
new MutationObserver((records) => {
  for (const record of records) for (const node of record.addedNodes) {
    if (node.nodeType === 1 && (node.id === "legality" || (node.querySelector && node.querySelector("#legality")))) {
      const t = performance.now();
      requestAnimationFrame(() => window.__bench.panels.push({inPage: t, drawn: performance.now()}));
      return;
    }
  }
}).observe(document, {subtree: true, childList: true});
"""

# The reference: the same POST the add button makes (the form as it is, with op), timed until its body is read.
FETCH = """
async (op) => {
  const form = document.getElementById("editor");
  const body = new FormData(form);
  body.set("op", op);
  const started = performance.now();
  const response = await fetch(form.action, {method: "POST", body,
    headers: {"HX-Request": "true", "HX-Target": "editor-live", "HX-Current-URL": location.href}});
  await response.text();
  return performance.now() - started;
}
"""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def entries(deck: dict) -> list[tuple[str, str, int]]:
    return [(section, entry["card"], entry["qty"]) for section, items in deck["sections"].items() for entry in items]


class Counter:
    """The person's actions: key presses (a shortcut such as Ctrl+V is one) and mouse clicks."""

    def __init__(self, page) -> None:
        self.page, self.keys, self.clicks = page, 0, 0

    def click(self, locator) -> None:
        locator.click()
        self.clicks += 1

    def type(self, text: str) -> None:
        for char in text:
            self.page.keyboard.type(char)
            self.keys += 1

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.keys += 1


def panels(page) -> int:
    return page.evaluate("window.__bench.panels.length")


def wait_panel(page, before: int) -> None:
    page.wait_for_function("(n) => window.__bench.panels.length > n", arg=before)


def save(page, act: Counter) -> None:
    before = panels(page)
    act.click(page.locator("#save"))
    wait_panel(page, before)
    page.wait_for_selector("#save-note .ok")


def build_clicks(page, deck: dict, act: Counter, latencies: list[float], fetches: list[float]) -> None:
    for section, code, qty in entries(deck):
        button = page.locator(f'#picker-results li[data-code="{code}"] button[value="add:{section}:{code}"]')
        for _ in range(qty):
            before = panels(page)
            act.click(button)
            wait_panel(page, before)
            click = page.evaluate("window.__bench.clicks[window.__bench.clicks.length - 1].t")
            drawn = page.evaluate("(n) => window.__bench.panels[n].drawn", before)
            latencies.append(drawn - click)
            fetches.append(page.evaluate(FETCH, f"add:{section}:{code}"))


def results_for(page, words: str) -> None:
    page.wait_for_function("(q) => { const l = document.querySelector('#picker-results .picker-list');"
                           " return l && (l.getAttribute('data-q') || '').trim() === q; }", arg=words.strip())


# The picker's answer for some words, as the search box gets it: (code, section) of each card found, best first.
PICKER = """
async ([url, words]) => {
  const html = await (await fetch(url + "?q=" + encodeURIComponent(words))).text();
  const rows = new DOMParser().parseFromString(html, "text/html").querySelectorAll("li[data-code]");
  return [...rows].map((row) => [row.dataset.code, row.dataset.section]);
}
"""


def fewest_letters(page, picker_url: str, name: str, code: str, section: str) -> tuple[str, int]:
    """The shortest start of a word of the card's English name, or of the name from that word on, that makes the
    card the first found (what a person who knows the catalog types), and how many ↓ it then needs (0 when found
    first; else the whole name and ↓ to it)."""
    starts = [0] + [i + 1 for i, char in enumerate(name) if char in " -・" and i + 1 < len(name)]
    candidates = sorted({name[start:end] for start in starts for end in range(start + 1, len(name) + 1)
                         if name[start:end].strip()}, key=lambda text: (len(text), text))
    for words in candidates:
        found = page.evaluate(PICKER, [picker_url, words])
        if found and found[0] == [code, section]:
            return words, 0
    found = page.evaluate(PICKER, [picker_url, name])
    return name, found.index([code, section])


def build_type(page, deck: dict, names: dict[str, str], act: Counter, typed_words: list[str], picker_url: str) -> None:
    act.click(page.locator("#q"))
    for section, code, qty in entries(deck):
        words, downs = fewest_letters(page, picker_url, names[code], code, section)
        act.type((f"{qty} " if qty > 1 else "") + words)
        if downs:  # the arrows need the results of these words on the page
            results_for(page, words)
            for _ in range(downs):
                act.press("ArrowDown")
        typed_words.append((f"{qty} " if qty > 1 else "") + words + " ↓" * downs + " ⏎")
        before = panels(page)
        act.press("Enter")  # before the results are there, Enter adds once they arrive (editor.js)
        wait_panel(page, before)
        results_for(page, "")  # the box is empty again and the picker shows every card: ready for the next name
    save(page, act)


def build_paste(page, text: str, act: Counter) -> None:
    act.click(page.locator("#paste"))
    page.evaluate("(text) => navigator.clipboard.writeText(text)", text)  # copied elsewhere: not counted
    act.press("Control+V")
    if page.locator("#paste").input_value().strip() != text.strip():
        raise SystemExit("Ctrl+V did not paste the list into the paste box")
    before = panels(page)
    act.click(page.locator('button[name="op"][value="paste"]'))
    wait_panel(page, before)
    save(page, act)


def saved_entries(page, base: str, slug: str) -> list[tuple[str, str, int]]:
    document = page.evaluate("async (url) => (await (await fetch(url)).json()).document", f"{base}/api/lists/{slug}/")
    return sorted(entries(document))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="builds by mouse (their add clicks are the latency "
                                                             "samples); `type` and `paste` are built once")
    parser.add_argument("--modes", default="clicks,type,paste")
    parser.add_argument("--deck", type=Path, default=DECK, help="a HAGMI list file (default: akane-assault)")
    parser.add_argument("--headed", action="store_true", help="show the browser (needs a display)")
    options = parser.parse_args()
    modes = [mode for mode in options.modes.split(",") if mode]
    deck_file = options.deck.resolve()
    deck = json.loads(deck_file.read_text(encoding="utf-8"))
    builds = [("clicks", n) for n in range(options.rounds) if "clicks" in modes]
    builds += [(mode, 0) for mode in ("type", "paste") if mode in modes]
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, DATABASE_URL=f"sqlite:///{tmp}/bench.sqlite3", HANGAR_VAR_DIR=tmp, DEBUG="1",
                   CELERY_BROKER_URL="memory://", HANGAR_THROTTLE_ANON="off", HANGAR_THROTTLE_USER="off",
                   HANGAR_THROTTLE_LOGIN="off", LOG_LEVEL="WARNING")
        for command in (["migrate", "--noinput", "-v0"], ["load_packages"]):
            subprocess.run([str(PYTHON), "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True)
        code = SETUP % {"deck": str(deck_file), "password": PASSWORD, "lists": len(builds)}
        out = subprocess.run([str(PYTHON), "manage.py", "shell", "-c", code], cwd=ROOT, env=env, check=True,
                             capture_output=True, text=True).stdout
        made = json.loads(out.split("BENCH", 1)[1])
        port = free_port()
        server = subprocess.Popen([str(GUNICORN), "-w", "2", "-b", f"127.0.0.1:{port}", "--log-level", "warning",
                                   "hangar.wsgi"], cwd=ROOT, env=env)
        report: dict = {"deck": str(deck_file.relative_to(ROOT)), "cards": sum(q for *_, q in entries(deck)),
                        "entries": len(entries(deck)), "main_deck": sum(q for s, _, q in entries(deck)
                                                                        if s in ("weapons", "tactics")),
                        "builds": []}
        latencies: list[float] = []
        fetches: list[float] = []
        try:
            base = f"http://127.0.0.1:{port}"
            wait_for(base + "/api/ping/")
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=not options.headed,
                                                     args=["--no-sandbox", "--disable-gpu"])
                context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
                context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
                context.set_default_timeout(20_000)
                context.add_init_script(PROBE)
                page = context.new_page()
                page.goto(f"{base}/accounts/login/")
                page.fill("#id_username", "bench")
                page.fill("#id_password", PASSWORD)
                page.click("form.stack button[type=submit]")
                page.wait_for_url(f"{base}/")
                for (mode, number), slug in zip(builds, made["slugs"]):
                    page.goto(f"{base}/lists/{slug}/edit/")
                    page.wait_for_selector("#legality")
                    act = Counter(page)
                    typed_words: list[str] = []
                    started = time.perf_counter()
                    if mode == "clicks":
                        build_clicks(page, deck, act, latencies, fetches)
                        save(page, act)
                    elif mode == "type":
                        build_type(page, deck, made["names"], act, typed_words, f"{base}/lists/{slug}/edit/cards/")
                    else:
                        build_paste(page, made["text"], act)
                    seconds = time.perf_counter() - started
                    same = saved_entries(page, base, slug) == sorted(entries(deck))
                    report["builds"].append({"mode": mode, "round": number + 1, "keys": act.keys,
                                             "clicks": act.clicks, "actions": act.keys + act.clicks,
                                             "seconds": round(seconds, 1), "saved_list_is_the_deck": same,
                                             **({"typed": " | ".join(typed_words)} if typed_words else {})})
                    if not same:
                        raise SystemExit(f"{mode}: the saved list is not the bundled deck")
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=20)
    if latencies:
        report["click_to_panel_ms"] = {"samples": len(latencies), "p50": round(statistics.median(latencies), 1),
                                       "p95": round(percentile(latencies, 0.95), 1), "max": round(max(latencies), 1)}
        report["reference_fetch_ms"] = {"samples": len(fetches), "p50": round(statistics.median(fetches), 1),
                                        "p95": round(percentile(fetches, 0.95), 1), "max": round(max(fetches), 1)}
    report["machine"] = {"cpus": os.cpu_count(), "load_average": os.getloadavg()}
    print(json.dumps(report, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
