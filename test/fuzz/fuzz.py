#!/usr/bin/env python3
"""Ferry's differential fuzzer (issue 10). See docs/fuzz.md.

  fuzz.py show     --seed S --index I            print one generated program
  fuzz.py batch    --ferry BIN --work DIR ...     generate, build, run, compare
  fuzz.py mutate   --ferry BIN --work DIR ...     mutants must not crash the tool
  fuzz.py campaign --ferry BIN --work DIR ...     both, and the table for docs/fuzz.md

`batch` and `mutate` exit with status 1 when anything failed.
"""

import argparse
import json
import re
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from ferryfuzz import driver, gen, mutate, reduce  # noqa: E402

FERRY_SRC = os.path.normpath(os.path.join(HERE, "..", ".."))


def log(msg):
    print(msg, flush=True)


def common(p):
    p.add_argument("--seed", default="1")
    p.add_argument("--ferry", help="the built ferry tool", required=True)
    p.add_argument("--ferry-src", default=FERRY_SRC, help="the Ferry source tree")
    p.add_argument("--work", required=True, help="working folder (kept between runs)")
    p.add_argument("-j", "--jobs", type=int, default=2)
    p.add_argument("--findings", help="where reduced reproducers go")
    p.add_argument("--avoid", action="append", metavar="FORM",
                   help="leave a form out of generated programs (docs/fuzz.md), e.g. a "
                   "known bug's, so that others show")
    form_arg(p)


def form_arg(p):
    p.add_argument("--form", choices=("params", "members", "vector", "objects", "nested"),
                   help="every program takes this program form (docs/fuzz.md) instead of "
                   "the default mix")
    p.add_argument("--split", action="store_true",
                   help="lay every file out over two Ferry sources and a header: the "
                   "compute and member functions in one, main in the other (docs/fuzz.md)")


def batch_args(p):
    p.add_argument("--programs", type=int, default=40)
    p.add_argument("--per-file", type=int, default=10)
    p.add_argument("--first", type=int, default=0, help="index of the first program")
    p.add_argument("--reduce", type=int, default=0, metavar="N",
                   help="reduce at most N failing programs (0: none)")
    p.add_argument("--reduce-tests", type=int, default=150,
                   help="builds one reduction may spend")


def report_failures(summary, limit=20):
    for f in summary["failures"][:limit]:
        log("FAIL %s (%s):" % (f["program"], f["source"]))
        for pol, kind, detail in f["problems"][:4]:
            log("  %s %s: %s" % (pol, kind, str(detail).strip().split("\n")[0][:300]))
    if len(summary["failures"]) > limit:
        log("... %d more failing programs" % (len(summary["failures"]) - limit))


def do_reduce(project, args, summary):
    """Reduces up to args.reduce failing programs, one per kind of symptom
    first; returns the paths written."""
    findings = args.findings or os.path.join(args.work, "findings")
    written = []
    seen = set()
    order = []
    for f in summary["failures"]:
        key = frozenset((p, k) for p, k, _ in f["problems"])
        order.append((key in seen, f))
        seen.add(key)
    order.sort(key=lambda x: x[0])
    for _, f in order[:args.reduce]:
        idx = int(f["program"][1:])
        sig = set((p, k) for p, k, _ in f["problems"] if k != "stats")
        log("reducing %s (%s)" % (f["program"], ", ".join("%s %s" % s for s in sorted(sig))))
        prog, tests, reproduced, problems = reduce.reduce(
            project, args.seed, idx, sig, budget_tests=args.reduce_tests, log=log,
            avoid=args.avoid or (), form=args.form, split=args.split)
        note = "" if reproduced else "not reproduced alone: the full generated program"
        path = reduce.write_finding(findings, args.seed, prog,
                                    problems or [tuple(p) for p in f["problems"]], note,
                                    split=args.split)
        log("  -> %s (%d builds)" % (path, tests))
        written.append(path)
    return written


def cmd_reduce(args):
    project = driver.Project(args.work, args.ferry, args.ferry_src, args.jobs)
    sig = set(tuple(s.split(":")) for s in args.symptom)
    prog, tests, reproduced, problems = reduce.reduce(
        project, args.seed, args.index, sig, budget_tests=args.reduce_tests, log=log,
        avoid=args.avoid or (), form=args.form, split=args.split)
    findings = args.findings or os.path.join(args.work, "findings")
    path = reduce.write_finding(findings, args.seed, prog, problems,
                                "" if reproduced else "not reproduced", split=args.split)
    log("%s after %d builds (%s)" % (path, tests, "reproduced" if reproduced else "NOT reproduced"))
    return 0 if reproduced else 1


def cmd_check(args):
    """Builds and compares files written by hand or by the reducer (any file
    whose programs print `[pK]` lines; a file without markers is one
    program, compared on its whole output)."""
    project = driver.Project(args.work, args.ferry, args.ferry_src, args.jobs)
    files, tags = {}, {}
    for path in args.files:
        stem = os.path.splitext(os.path.basename(os.path.normpath(path)))[0]
        name = "c_" + re.sub(r"\W", "_", stem)
        if os.path.isdir(path):
            # A split reproducer: stem.cpp, stem_b.cpp and stem.h.
            files[name] = {s: open(os.path.join(path, stem + s)).read().replace(
                '#include "%s.h"' % stem, '#include "%s.h"' % name)
                for s in gen.SPLIT_SUFFIXES}
            text = files[name][".cpp"]
        else:
            text = open(path).read()
            files[name] = text
        tags[name] = re.findall(r"// ---- program (p\d+)", text) or [None]
    project.set_files(files)
    project.build_all(sorted(files) + [n + "_ref" for n in sorted(files)])
    bad = 0
    for name, path in zip(files, args.files):
        r, _ = driver.check_file(project, name, tags[name])
        problems = [p for v in r.values() for p in v]
        bad += bool(problems)
        log("%s %s" % ("FAIL" if problems else "ok  ", path))
        for pol, kind, detail in problems[:4]:
            log("  %s %s: %s" % (pol, kind, str(detail).strip().split("\n")[0][:300]))
    return 1 if bad else 0


def cmd_show(args):
    prog = gen.generate(args.seed, args.index, args.avoid or (), args.form)
    if not args.split:
        print(gen.render_file(args.seed, [prog]))
        return 0
    for suffix, text in gen.render_split(args.seed, [prog], "show").items():
        print("// ===== show%s\n%s" % (suffix, text))
    return 0


def cmd_batch(args):
    project, summary = driver.batch(args, log)
    c = summary["counts"]
    log("%d programs in %.0f s: %d failing (mismatch %d, rewrite %d, compile %d, crash %d, "
        "stderr %d, invalid %d); bytes planned %d kernel %d naive %d" % (
            summary["programs"], summary["seconds"], summary["failed_programs"], c["mismatch"],
            c["rewrite"], c["compile"], c["crash"], c["stderr"], c["invalid"],
            summary["bytes"]["planned"], summary["bytes"]["kernel"], summary["bytes"]["naive"]))
    report_failures(summary)
    for k, n, ex in symptoms(summary):
        log("%4d x %s (e.g. %s)" % (n, k, ex))
    if args.reduce and summary["failures"]:
        do_reduce(project, args, summary)
    return 1 if summary["failed_programs"] else 0


def cmd_mutate(args):
    t0 = time.time()
    counts, crashes = mutate.run(args, log)
    log("%d mutants in %.0f s: %s" % (args.mutants, time.time() - t0,
                                      ", ".join("%s %d" % kv for kv in counts.items())))
    for name, what, path, msg in crashes:
        log("CRASH %s (%s): %s\n  %s" % (name, what, path, msg.replace("\n", "\n  ")))
    return 1 if crashes else 0


TABLE = """\
## Last campaign

Seed `{seed}`, {programs} programs ({per_file} per file; {split} of them over two
sources, `--split`), {mutants} mutants;
{seconds:.0f} s on this machine with `-j{jobs}`.

| programs | failing programs | mismatches | rewrite failures | compile failures | crashes (tool or run) | stderr | invalid programs | mutants | mutant crashes |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
| {programs} | {failed} | {mismatch} | {rewrite} | {compile} | {crash} | {stderr} | {invalid} | {mutants} | {mcrash} |

Bytes moved, all programs that ran under all three policies (programs where
the plan moved more than the `kernel` policy: {worse}):

| policy | bytes | relative to naive |
| --- | --- | --- |
{bytes_rows}

Failures by symptom (names and numbers blanked; a program may have several):

| symptom | programs | e.g. |
| --- | --- | --- |
{symptom_rows}
"""


def symptom(kind, detail):
    """A failure's message with names, numbers and paths taken out, so that
    failures of one cause count together."""
    lines = str(detail).strip().split("\n")
    line = next((l for l in lines if ": error:" in l), lines[0] if lines else "")
    line = re.sub(r"^.*?: error: ", "", line)
    line = re.sub(r"\bp\d+_\w+", "ID", line)
    line = re.sub(r"\[p\d+\][^`]*", "[...]", line)
    line = re.sub(r"\d+", "N", line)
    return "%s: %s" % (kind, line[:140])


def symptoms(summary):
    """[(symptom, programs, example)] for the campaign's table."""
    groups = {}
    for f in summary["failures"]:
        seen = set()
        for pol, kind, detail in f["problems"]:
            key = symptom(kind if pol in ("build", "reference") else "%s %s" % (pol, kind), detail)
            if key not in seen:
                seen.add(key)
                g = groups.setdefault(key, [0, f["program"]])
                g[0] += 1
    return sorted(((k, n, ex) for k, (n, ex) in groups.items()), key=lambda x: -x[1])


def merge(total, part):
    if total is None:
        return part
    for k, v in part["counts"].items():
        total["counts"][k] = total["counts"].get(k, 0) + v
    for k in ("programs", "failed_programs", "seconds", "build_seconds", "planned_above_kernel"):
        total[k] += part[k]
    for k, v in part["bytes"].items():
        total["bytes"][k] += v
    total["failures"] += part["failures"]
    total["per_program_bytes"].update(part["per_program_bytes"])
    return total


def cmd_campaign(args):
    """The batch in chunks (results and disk use stay bounded, and progress
    shows), then the mutants."""
    t0 = time.time()
    summary = None
    first, left = args.first, args.programs
    # The last share of the programs laid out over two sources (--split).
    split_from = args.first + args.programs - round(args.programs * args.split_share)
    while left > 0:
        n = min(left, args.chunk, max(split_from - first, 0) or left)
        chunk = argparse.Namespace(**vars(args))
        chunk.first, chunk.programs = first, n
        chunk.split = args.split or first >= split_from
        project, part = driver.batch(chunk, log)
        summary = merge(summary, part)
        first += n
        left -= n
        log("%d/%d programs, %d failing so far, %.0f s" % (
            summary["programs"], args.programs, summary["failed_programs"], time.time() - t0))
    report_failures(summary)
    if args.reduce and summary["failures"]:
        do_reduce(project, args, summary)
    counts, crashes = mutate.run(args, log)
    for name, what, path, msg in crashes:
        log("CRASH %s (%s): %s" % (name, what, path))
    c = summary["counts"]
    full = [v for v in summary["per_program_bytes"].values() if all(x is not None for x in v.values())]
    tot = {p: sum(v[p] for v in full) for p in driver.POLICIES}
    groups = symptoms(summary)
    sym = "\n".join("| %s | %d | %s |" % (k.replace("|", "\\|").replace("`", "'"), n, ex)
                    for k, n, ex in groups[:15]) or "| (none) | 0 | |"
    rows = "\n".join("| %s | %d | %s |" % (p, tot[p], "%.3f" % (tot[p] / tot["naive"])
                                           if tot["naive"] else "-") for p in driver.POLICIES)
    split = args.programs if args.split else round(args.programs * args.split_share)
    table = TABLE.format(seed=args.seed, programs=summary["programs"], per_file=args.per_file,
                         split=split,
                         mutants=args.mutants, seconds=time.time() - t0, jobs=args.jobs,
                         failed=summary["failed_programs"], mismatch=c["mismatch"],
                         rewrite=c["rewrite"], compile=c["compile"], crash=c["crash"],
                         stderr=c["stderr"], invalid=c["invalid"],
                         mcrash=counts["crash"] + counts["hang"], bytes_rows=rows,
                         worse=summary["planned_above_kernel"], symptom_rows=sym)
    log(table)
    if args.doc:
        update_doc(args.doc, table)
    with open(os.path.join(args.work, "campaign.json"), "w") as f:
        json.dump({"batch": summary, "mutants": counts}, f, indent=1)
    return 1 if summary["failed_programs"] or crashes else 0


def update_doc(path, table):
    """Replaces the `## Last campaign` section of the doc (to its end or the
    next `## `)."""
    text = open(path).read() if os.path.exists(path) else ""
    start = text.find("## Last campaign")
    if start < 0:
        text = text.rstrip() + "\n\n" + table
    else:
        end = text.find("\n## ", start + 1)
        text = text[:start] + table + (text[end + 1:] if end >= 0 else "")
    with open(path, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("show")
    p.add_argument("--seed", default="1")
    p.add_argument("--index", type=int, default=0)
    p.add_argument("--avoid", action="append", metavar="FORM")
    form_arg(p)
    p = sub.add_parser("batch")
    common(p)
    batch_args(p)
    p = sub.add_parser("reduce", help="reduce one generated program")
    common(p)
    p.add_argument("--index", type=int, required=True)
    p.add_argument("--symptom", action="append", required=True,
                   help="POLICY:KIND as in a batch's report, e.g. planned:mismatch, build:compile")
    p.add_argument("--reduce-tests", type=int, default=150)
    p = sub.add_parser("check", help="build and compare given files")
    common(p)
    p.add_argument("files", nargs="+")
    p = sub.add_parser("mutate")
    common(p)
    p.add_argument("--mutants", type=int, default=60)
    p.add_argument("--generated", type=int, default=6, help="generated programs to mutate")
    p.add_argument("--samples", default=os.path.join(FERRY_SRC, "samples"))
    p = sub.add_parser("campaign")
    common(p)
    batch_args(p)
    p.add_argument("--mutants", type=int, default=2000)
    p.add_argument("--generated", type=int, default=50)
    p.add_argument("--samples", default=os.path.join(FERRY_SRC, "samples"))
    p.add_argument("--chunk", type=int, default=1000, help="programs built at a time")
    p.add_argument("--split-share", type=float, default=0.0, metavar="F",
                   help="lay the last F of the programs out over two sources (--split)")
    p.add_argument("--doc", help="markdown file whose `## Last campaign` section is replaced")
    args = ap.parse_args()
    return {"show": cmd_show, "batch": cmd_batch, "mutate": cmd_mutate,
            "campaign": cmd_campaign, "reduce": cmd_reduce, "check": cmd_check}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
