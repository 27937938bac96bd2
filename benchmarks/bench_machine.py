#!/usr/bin/env python3
"""The machine a benchmark ran on, and how fast one of its cores runs plain Python right now.

Run from the repository root:  python benchmarks/bench_machine.py [--seconds S] [--json]

Prints the CPU model (/proc/cpuinfo), cores, RAM, OS, kernel, Python, the load average, and a CALIBRATION figure:
a fixed pure-Python workload shaped like the engines' inner loops (attribute reads, dict lookups, small function
calls, list building, a seeded random.Random) timed with time.process_time (CPU time of this process), best of the
runs done in S seconds. It says how fast one core is *for this kind of code*, so engine figures taken on two
machines, or on one machine busy and quiet, can be compared: divide games/s by the calibration (docs/benchmarks.md).

CPU time still rises when other processes share the cores (caches, SMT siblings and frequency are shared), so the
calibration is also a load indicator: run it with the benchmark, and re-measure on a quiet machine when it drops.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import time
from pathlib import Path

WORK_ITEMS = 20_000  # one calibration round: about 40-60 ms of CPU on a 2020s server VM core


class _Unit:
    __slots__ = ("uid", "armor", "power", "alive")

    def __init__(self, uid: int, armor: int, power: int) -> None:
        self.uid, self.armor, self.power, self.alive = uid, armor, power, True


def _damage(attacker: _Unit, defender: _Unit, bonus: dict[str, int]) -> int:
    return max(0, attacker.power + bonus.get("power", 0) - defender.armor)


def workload(seed: int = 2026) -> int:
    """One round: a seeded skirmish of small objects. Returns a checksum (the same on every machine)."""
    rng = random.Random(seed)
    units = [_Unit(uid, rng.randint(0, 3), rng.randint(1, 6)) for uid in range(64)]
    by_uid = {unit.uid: unit for unit in units}
    bonus = {"power": 1}
    total = 0
    for step in range(WORK_ITEMS):
        attacker = by_uid[rng.randrange(64)]
        targets = [unit for unit in units[step % 8::8] if unit.alive and unit is not attacker]
        if not targets:
            for unit in units:
                unit.alive = True
            continue
        defender = min(targets, key=lambda unit: (unit.armor, unit.uid))
        hit = _damage(attacker, defender, bonus)
        total += hit
        if hit >= 4:
            defender.alive = False
    return total


def calibration(seconds: float) -> dict[str, float]:
    """Rounds per CPU second (best round) and per wall second, over about `seconds` of work."""
    workload()  # warm-up
    best_cpu = best_wall = float("inf")
    rounds = 0
    deadline = time.perf_counter() + seconds
    while rounds < 3 or time.perf_counter() < deadline:
        wall, cpu = time.perf_counter(), time.process_time()
        workload()
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
        rounds += 1
    return {"rounds_per_cpu_second": round(1 / best_cpu, 1), "rounds_per_wall_second": round(1 / best_wall, 1),
            "rounds": rounds}


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _ram_gib() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    return None


def _os_name() -> str:
    try:
        for line in Path("/etc/os-release").read_text().splitlines():
            if line.startswith("PRETTY_NAME="):
                return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return platform.platform()


def _virtualisation() -> str:
    try:
        flags = next(line for line in Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("flags"))
        return "VM" if " hypervisor" in flags else "bare metal"
    except (OSError, StopIteration):
        return "unknown"


def machine() -> dict[str, object]:
    return {
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "virtualisation": _virtualisation(),
        "ram_gib": _ram_gib(),
        "os": _os_name(),
        "kernel": platform.release(),
        "python": platform.python_version(),
        "load_average": [round(value, 2) for value in os.getloadavg()],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="calibration time (default 3 s)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    report = machine()
    report["calibration"] = calibration(args.seconds)
    report["checksum"] = workload()  # the same on every machine: the workload did not change
    report["load_average_after"] = [round(value, 2) for value in os.getloadavg()]
    if args.json:
        print(json.dumps(report))
        return
    print(f"CPU           {report['cpu']} ({report['virtualisation']}), {report['cores']} cores")
    print(f"RAM           {report['ram_gib']} GiB")
    print(f"OS            {report['os']}, kernel {report['kernel']}")
    print(f"Python        {report['python']}")
    print(f"load average  {report['load_average']} (1, 5, 15 min) -> {report['load_average_after']}")
    cal = report["calibration"]
    print(f"calibration   {cal['rounds_per_cpu_second']} rounds per CPU second, {cal['rounds_per_wall_second']} per "
          f"wall second (best of {cal['rounds']}; checksum {report['checksum']})")


if __name__ == "__main__":
    main()
