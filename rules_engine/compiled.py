"""The game engines compiled to C with mypyc: the same games to the bit, 2-4 times as fast.

The engines are plain Python and always work as such. At set-up (`python3 dev.py run` / `test`, or by hand:
`python -m rules_engine.compiled build`) the modules listed in PACKAGES are compiled with mypyc (part of mypy,
pinned in requirements.txt; it needs a C compiler and the Python headers), one build per engine package under
BUILD_DIR. When such a package is imported it uses its compiled modules instead of its .py files, but only if they
were built from exactly the sources in the work tree by this Python (a digest of both is stored with the build).
Edit a source and that package falls back to pure Python until the next build, so compiled code is never stale;
a failed build only means pure Python. `HANGAR_ENGINE=python` forces pure Python (the tests compare both).

    python -m rules_engine.compiled build [--force]   compile what is out of date
    python -m rules_engine.compiled status            which engine each package would use, and why

Writing engine code that compiles well (each of these cost 5-40 % of an engine's time until session 3; a profile of
compiled code: `perf record -e cpu-clock --call-graph dwarf`, then look for `_PyObject_MakeTpCall`,
`PyObject_GetAttr` and `CPyPy_` wrappers under `CPyDef_` frames, docs/engine-warcaster.md "Benchmark"):

- type what hot code reads (the state, units, models), never `Any`: typed attribute reads and method calls are
  direct C, `Any` ones are Python lookups;
- no class decorators on engine classes (register them after the class: `register_policy("x")(Cls)`), which make
  mypyc compile a plain Python class; no bound methods kept in locals (`f = self.method`), no
  `getattr(self, f"_do_{kind}")` dispatch (write the chain of `if`s), no `**kwargs` on hot functions (pass a dict);
- no `functools.lru_cache` on hot functions (a dict cache), no `min`/`max` with `key=`, `default=` or three
  arguments, no `math.hypot` in new code (`sqrt` of the sum is native; MWDA keeps hypot, which it was written
  with: a last-bit difference could change a game); module constants read in loops are `Final`.

Every such change must keep the games: compare the hashes of many seeded results before and after, and the tests'
stored event logs.

No Django here (rules_engine never imports it).
"""
from __future__ import annotations

import hashlib
import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD_DIR = Path(os.environ.get("HANGAR_ENGINE_BUILD_DIR", ROOT / "var" / "engine-build"))
STAMP = "stamp.json"
# Per engine package, the modules compiled together (construction, simulation, odds, board and the position modules stay
# Python: they are not in the game loop; and mypyc refuses a module importing rules_engine.positions, whose imports
# do not type-check).
PACKAGES: dict[str, tuple[str, ...]] = {
    "rules_engine.warcaster": ("geometry", "models", "actions", "state", "movement", "deployment", "charging",
                               "combat", "cyphers", "policies", "game"),
    "rules_engine.mwda": ("geometry", "units", "actions", "state", "combat", "orders", "movement", "policies", "game"),
    "rules_engine.hagmi": ("cards", "actions", "state", "skills", "beasts", "zones", "damage", "combat", "refit",
                           "skill_effects", "legal", "policies", "game"),
}
PACKAGE = "rules_engine.warcaster"  # the default of `status()`


def modules_of(package: str) -> tuple[str, ...]:
    return tuple(f"{package}.{name}" for name in PACKAGES[package])


def _short(package: str) -> str:
    return package.rsplit(".", 1)[-1]


def build_dir(package: str, source_digest: str | None = None) -> Path:
    """The folder of a package's build from sources with this digest: a build never changes once made, and a new
    one goes into a new folder, so a running process can never load half of one build and half of another."""
    return BUILD_DIR / _short(package) / (source_digest or digest(package))[:16]


def group_of(package: str) -> str:
    """mypyc's shared support library of a package's build: hangar_<engine>__mypyc."""
    return f"hangar_{_short(package)}"


_status: dict[str, dict[str, str]] = {}  # package -> {"engine", "reason"}, filled by `activate`


def source_path(module: str) -> Path:
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def digest(package: str = PACKAGE) -> str:
    """What a package's build depends on: this Python (version and ABI) and every compiled module's source."""
    h = hashlib.sha256()
    h.update(f"{sys.implementation.cache_tag} {sys.version} {sys.platform}".encode())
    for module in modules_of(package):
        h.update(module.encode())
        h.update(source_path(module).read_bytes())
    return h.hexdigest()


def _read_stamp(folder: Path) -> dict:
    try:
        return json.loads((folder / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def activate(package: str, package_path: list[str]) -> bool:
    """Called by an engine package's __init__.py: put its compiled modules ahead of the sources when they are up
    to date. Returns True when the compiled engine will be used."""
    status = _status[package] = {"engine": "python", "reason": ""}
    if os.environ.get("HANGAR_ENGINE", "").strip().lower() == "python":
        status["reason"] = "HANGAR_ENGINE=python"
        return False
    wanted = digest(package)
    folder = build_dir(package, wanted)
    if _read_stamp(folder).get("digest") != wanted:
        others = folder.parent.is_dir() and any(p.is_dir() for p in folder.parent.iterdir())
        status["reason"] = ("the compiled build is older than the sources (rebuild it)" if others
                            else f"not compiled (no build in {folder.parent})")
        return False
    added = str(folder) not in sys.path
    if added:
        sys.path.append(str(folder))
    try:
        importlib.import_module(f"{group_of(package)}__mypyc")
    except ImportError as error:
        if added:
            sys.path.remove(str(folder))
        status["reason"] = f"the compiled build does not load: {error}"
        return False
    package_path.insert(0, str(folder.joinpath(*package.split("."))))
    status.update(engine="compiled", reason=f"mypyc build in {folder}")
    return True


def status(package: str = PACKAGE) -> dict[str, str]:
    """{"engine": "compiled" | "python", "reason": ...} for an engine package in this process."""
    importlib.import_module(package)
    return dict(_status.get(package) or {"engine": "python", "reason": "the package has no compiled build"})


def build(force: bool = False, packages: list[str] | None = None) -> int:
    """Compile every package (or `packages`) that is out of date; 0 when all are compiled. The packages build side
    by side, one child process each, as many at a time as the machine has cores (each build is one C compiler
    process, so on 2 cores two builds take the time of one)."""
    from concurrent.futures import ThreadPoolExecutor

    wanted = packages or list(PACKAGES)
    with ThreadPoolExecutor(max_workers=max(1, min(len(wanted), os.cpu_count() or 1))) as pool:
        built = list(pool.map(lambda package: build_package(package, force=force), wanted))
    return 0 if all(built) else 1


def build_package(package: str, *, force: bool = False) -> bool:
    """Compile one package's modules into its build folder (in a child process: setuptools and mypy stay out of
    this one). A complete build is renamed into its folder (stamp written last); older builds are then removed."""
    wanted = digest(package)
    folder = build_dir(package, wanted)
    if not force and _read_stamp(folder).get("digest") == wanted:
        print(f"compiled {package}: up to date ({folder})")
        return True
    work = folder.with_name(f"{folder.name}.tmp{os.getpid()}")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    env = dict(os.environ, MYPY_CACHE_DIR=str(work / "mypy-cache"), HANGAR_ENGINE="python")
    done = subprocess.run([sys.executable, "-c", _BUILD_SCRIPT, str(work), group_of(package), *modules_of(package)],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-25:])
        print(f"could not compile {package} (it runs as pure Python):\n{tail}", file=sys.stderr)
        shutil.rmtree(work, ignore_errors=True)
        return False
    for scratch in ("c", "temp", "mypy-cache"):
        shutil.rmtree(work / scratch, ignore_errors=True)
    stamp = {"digest": wanted, "modules": list(modules_of(package))}
    (work / STAMP).write_text(json.dumps(stamp, indent=1), encoding="utf-8")
    shutil.rmtree(folder, ignore_errors=True)
    work.rename(folder)
    for old in folder.parent.iterdir():  # a process still using an old build keeps its open files (POSIX)
        if old != folder and ".tmp" not in old.name:
            shutil.rmtree(old, ignore_errors=True) if old.is_dir() else old.unlink(missing_ok=True)
    print(f"compiled {package} with mypyc into {folder}")
    return True


_BUILD_SCRIPT = r"""
import sys
from setuptools import setup
from mypyc.build import mypycify

work, group, modules = sys.argv[1], sys.argv[2], sys.argv[3:]
paths = [m.replace(".", "/") + ".py" for m in modules]
setup(
    name=group,
    ext_modules=mypycify(paths, group_name=group, opt_level="3", target_dir=work + "/c"),
    script_args=["--quiet", "build_ext", "--build-lib", work, "--build-temp", work + "/temp"],
)
"""


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "status"
    if command == "build":
        return build(force="--force" in argv[1:], packages=[a for a in argv[1:] if not a.startswith("--")] or None)
    if command == "status":
        from rules_engine import compiled  # not this __main__ module: the one the package reports to

        for package in PACKAGES:
            found = compiled.status(package)
            print(f"{package}: {found['engine']} ({found['reason']})")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
