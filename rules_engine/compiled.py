"""The Warcaster engine compiled to C with mypyc: the same games to the bit, about twice as fast (issue 7).

The engine is plain Python and always works as such. At set-up (`python3 dev.py run` / `test`, or by hand:
`python -m rules_engine.compiled build`) the modules in MODULES are compiled with mypyc (part of mypy, pinned in
requirements.txt; it needs a C compiler and the Python headers) into BUILD_DIR. When `rules_engine.warcaster` is
imported it uses the compiled modules instead of its .py files, but only if they were built from exactly the
sources in the work tree by this Python (a digest of both is stored with the build). Edit a source and the
package falls back to pure Python until the next build, so compiled code is never stale; a failed build only
means pure Python. `HANGAR_ENGINE=python` forces pure Python (the tests compare both).

    python -m rules_engine.compiled build [--force]   compile (skipped when up to date)
    python -m rules_engine.compiled status            which engine an import would use, and why

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
GROUP = "hangar_engine"  # mypyc's shared support library: hangar_engine__mypyc
PACKAGE = "rules_engine.warcaster"
MODULES = (  # compiled together, in this package; construction and simulation stay Python
    "rules_engine.warcaster.geometry",
    "rules_engine.warcaster.models",
    "rules_engine.warcaster.state",
    "rules_engine.warcaster.combat",
    "rules_engine.warcaster.cyphers",
    "rules_engine.warcaster.policies",
    "rules_engine.warcaster.game",
)

_status: dict[str, str] = {"engine": "python", "reason": "rules_engine.warcaster not imported yet"}


def source_path(module: str) -> Path:
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def digest() -> str:
    """What a build depends on: this Python (version and ABI) and every compiled module's source."""
    h = hashlib.sha256()
    h.update(f"{sys.implementation.cache_tag} {sys.version} {sys.platform}".encode())
    for module in MODULES:
        h.update(module.encode())
        h.update(source_path(module).read_bytes())
    return h.hexdigest()


def _read_stamp() -> dict:
    try:
        return json.loads((BUILD_DIR / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def activate(package: str, package_path: list[str]) -> bool:
    """Called by rules_engine/warcaster/__init__.py: put the compiled modules ahead of the sources when they are
    up to date. Returns True when the compiled engine will be used."""
    if os.environ.get("HANGAR_ENGINE", "").strip().lower() == "python":
        _status.update(engine="python", reason="HANGAR_ENGINE=python")
        return False
    stamp = _read_stamp()
    if not stamp:
        _status.update(engine="python", reason=f"not compiled (no build in {BUILD_DIR})")
        return False
    if stamp.get("digest") != digest():
        _status.update(engine="python", reason="the compiled build is older than the sources (rebuild it)")
        return False
    folder = BUILD_DIR.joinpath(*package.split("."))
    added = str(BUILD_DIR) not in sys.path
    if added:
        sys.path.append(str(BUILD_DIR))
    try:
        importlib.import_module(f"{GROUP}__mypyc")
    except ImportError as error:
        if added:
            sys.path.remove(str(BUILD_DIR))
        _status.update(engine="python", reason=f"the compiled build does not load: {error}")
        return False
    package_path.insert(0, str(folder))
    _status.update(engine="compiled", reason=f"mypyc build in {BUILD_DIR}")
    return True


def status() -> dict[str, str]:
    """{"engine": "compiled" | "python", "reason": ...} for the Warcaster engine of this process."""
    importlib.import_module(PACKAGE)
    return dict(_status)


def build(force: bool = False) -> int:
    """Compile MODULES into BUILD_DIR (in a child process: setuptools and mypy stay out of this one)."""
    wanted = digest()
    if not force and _read_stamp().get("digest") == wanted:
        print(f"compiled engine up to date ({BUILD_DIR})")
        return 0
    work = BUILD_DIR.with_name(BUILD_DIR.name + ".tmp")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    env = dict(os.environ, MYPY_CACHE_DIR=str(work / "mypy-cache"), HANGAR_ENGINE="python")
    done = subprocess.run([sys.executable, "-c", _BUILD_SCRIPT, str(work), *MODULES], cwd=ROOT, env=env,
                          capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-25:])
        print(f"could not compile the engine (pure Python will be used):\n{tail}", file=sys.stderr)
        shutil.rmtree(work, ignore_errors=True)
        return 1
    for scratch in ("c", "temp", "mypy-cache"):
        shutil.rmtree(work / scratch, ignore_errors=True)
    (work / STAMP).write_text(json.dumps({"digest": wanted, "modules": list(MODULES)}, indent=1), encoding="utf-8")
    shutil.rmtree(BUILD_DIR, ignore_errors=True)
    work.rename(BUILD_DIR)
    print(f"compiled the engine with mypyc into {BUILD_DIR}")
    return 0


_BUILD_SCRIPT = r"""
import sys
from setuptools import setup
from mypyc.build import mypycify

work, modules = sys.argv[1], sys.argv[2:]
paths = [m.replace(".", "/") + ".py" for m in modules]
setup(
    name="hangar-engine",
    ext_modules=mypycify(paths, group_name="hangar_engine", opt_level="3", target_dir=work + "/c"),
    script_args=["--quiet", "build_ext", "--build-lib", work, "--build-temp", work + "/temp"],
)
"""


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "status"
    if command == "build":
        return build(force="--force" in argv[1:])
    if command == "status":
        from rules_engine import compiled  # not this __main__ module: the one the package reports to

        found = compiled.status()
        print(f"{found['engine']}: {found['reason']}")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
