#!/usr/bin/env python3
"""README's fuzzing table, from what the campaigns recorded: per target (every
fuzz/*_fuzz.cc), the campaigns of fuzz/campaigns.tsv summed (CPU time,
executions) with the last one's coverage, the faults of fuzz/faults.tsv, and
the corpus saved under fuzz/corpus/. Prints Markdown:

    scripts/fuzz-table.py
"""

from __future__ import annotations

import csv
import os
from collections import defaultdict
from pathlib import Path

root = Path(__file__).resolve().parent.parent
fuzz = root / "fuzz"

targets = sorted(p.stem for p in fuzz.glob("*_fuzz.cc"))
campaigns = defaultdict(list)
with open(fuzz / "campaigns.tsv") as f:
    for row in csv.DictReader(f, delimiter="\t"):
        campaigns[row["target"]].append(row)
faults = defaultdict(list)
with open(fuzz / "faults.tsv") as f:
    for row in csv.reader(f, delimiter="\t"):
        if row and row[0] != "target":
            faults[row[0]].append(row[1])


def known(v: str) -> bool:
    return v not in ("", "?")


def corpus(target: str) -> str:
    d = fuzz / "corpus" / target
    files = [p for p in d.rglob("*") if p.is_file()] if d.is_dir() else []
    if not files:
        return "none"
    size = sum(os.path.getsize(p) for p in files)
    return f"{len(files)} files, {size / 1e6:.2f} MB"


print("| target | campaigns | CPU hours | executions | cov / ft (last) | faults found and fixed | saved corpus |")
print("|---|---|---|---|---|---|---|")
for t in targets:
    runs = campaigns.get(t, [])
    if runs:
        cpu = sum(float(r["cpu_seconds"]) for r in runs if known(r["cpu_seconds"])) / 3600
        unrecorded = [r for r in runs if not known(r["cpu_seconds"])]
        wall = sum(float(r["seconds"]) for r in unrecorded) / 3600
        hours = f"{cpu:.2f}" + (f" + {wall:.2f} h wall, CPU unrecorded" if unrecorded else "")
        execs = f"{sum(int(r['executions']) for r in runs if known(r['executions'])):,}"
        last = runs[-1]
        cov = f"{last['cov']} / {last['ft']}" if known(last["cov"]) else "-"
        count = str(len(runs))
    else:
        count, hours, execs, cov = "0", "CI only", "-", "-"
    found = faults.get(t, [])
    fault_text = f"{len(found)}: " + "; ".join(found) if found else "0"
    print(f"| {t} | {count} | {hours} | {execs} | {cov} | {fault_text} | {corpus(t)} |")
