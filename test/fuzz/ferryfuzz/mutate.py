"""No crash on any input: mutate generated programs and the samples, feed
each mutant to `ferry rewrite`, and require either a rewrite or a located
diagnostic (`file:line:col: error:`)."""

import concurrent.futures
import os
import random
import re
import shutil
import subprocess

from . import driver, gen

TOKEN = re.compile(r"[A-Za-z_]\w*|\d+|::|->|<<|>>|[<>=!+\-*/%&|]=|&&|\|\||\S")
ANNOTATIONS = ["FERRY_KERNEL", "FERRY_COMPUTE", "FERRY_RO", "FERRY_WO", "FERRY_RW"]
TYPE_SWAPS = [("int", "float"), ("int", "long"), ("int", "double"), ("int *", "int **"),
              ("const int *", "int *"), ("ferry::Buffer<int>", "ferry::Buffer<float>"),
              ("ferry::Buffer<int> &", "ferry::Buffer<int>"), ("float", "int"),
              ("ferry::Buffer<float>", "ferry::Buffer<double>"), ("&", "*"),
              ("ferry::ComputeContext &", "ferry::ComputeContext"),
              ("ferry::KernelContext", "int"), ("std::size_t", "char")]


def mutate(text, r):
    """One random mutation; returns (description, new text)."""
    lines = text.split("\n")
    kind = r.choice(["token", "token", "line", "annotation", "annotation", "type", "type",
                     "duplicate"])
    if kind == "line":
        i = r.randrange(len(lines))
        return "delete line %d" % (i + 1), "\n".join(lines[:i] + lines[i + 1:])
    if kind == "duplicate":
        i = r.randrange(len(lines))
        return "duplicate line %d" % (i + 1), "\n".join(lines[:i + 1] + lines[i:])
    if kind == "token":
        toks = [m for m in TOKEN.finditer(text)
                if not text[:m.start()].rstrip().endswith("#include")]
        m = r.choice(toks)
        line = text.count("\n", 0, m.start()) + 1
        return ("delete token `%s` at line %d" % (m.group(0), line),
                text[:m.start()] + text[m.end():])
    if kind == "annotation":
        found = [m for a in ANNOTATIONS for m in re.finditer(r"\b%s\b" % a, text)]
        if not found:
            return mutate(text, r)
        m = r.choice(found)
        new = r.choice(["", r.choice(ANNOTATIONS)])
        line = text.count("\n", 0, m.start()) + 1
        return ("%s at line %d -> `%s`" % (m.group(0), line, new),
                text[:m.start()] + new + text[m.end():])
    old, new = r.choice(TYPE_SWAPS)
    found = [m.start() for m in re.finditer(re.escape(old), text)]
    if not found:
        return mutate(text, r)
    at = r.choice(found)
    line = text.count("\n", 0, at) + 1
    return ("`%s` -> `%s` at line %d" % (old, new, line),
            text[:at] + new + text[at + len(old):])


def seeds(seed, n_generated, samples_dir):
    """The inputs mutated: generated single-program files and the samples."""
    out = []
    for i in range(n_generated):
        out.append(("generated p%d" % i, gen.render_file(seed, [gen.generate(seed, i)]), None))
    if samples_dir and os.path.isdir(samples_dir):
        for d in sorted(os.listdir(samples_dir)):
            folder = os.path.join(samples_dir, d)
            if os.path.isdir(folder):
                for f in sorted(os.listdir(folder)):
                    if f.endswith(".cpp"):
                        p = os.path.join(folder, f)
                        out.append(("sample " + f, open(p).read(), folder))
    return out


def classify(rc, text):
    if rc == 124:
        return "hang"
    if rc == 0:
        return "rewritten"
    if rc < 0 or driver.tool_failure_kind(text) == "crash":
        return "crash"
    return "diagnostic"


def check(ferry, work, i, name, text, include):
    path = os.path.join(work, "m%d.cpp" % i)
    with open(path, "w") as f:
        f.write(text)
    cmd = [ferry, "rewrite", path, "-o", os.path.join(work, "m%d.out.cpp" % i),
           "--cl", os.path.join(work, "m%d.cl" % i), "--", "-std=c++17"]
    if include:
        cmd.append("-I" + include)
    rc, out, err = driver.sh(cmd, timeout=120)
    return classify(rc, out + err), path, driver.tail(out + err, 15)


def run(args, log):
    """Returns {outcome: count} and the crashing inputs (saved under
    args.findings)."""
    r = random.Random("ferry-mutate:%s" % args.seed)
    work = os.path.join(os.path.abspath(args.work), "mutants")
    os.makedirs(work, exist_ok=True)
    base = seeds(args.seed, args.generated, args.samples)
    jobs = []
    for i in range(args.mutants):
        name, text, include = base[i % len(base)]
        what, mutant = mutate(text, r)
        if r.random() < 0.3:  # sometimes two mutations at once
            what2, mutant = mutate(mutant, r)
            what += "; " + what2
        jobs.append((i, name, what, mutant, include))
    counts = {"rewritten": 0, "diagnostic": 0, "crash": 0, "hang": 0}
    crashes = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futs = {pool.submit(check, args.ferry, work, i, name, m, inc): (i, name, what)
                for i, name, what, m, inc in jobs}
        for fut in concurrent.futures.as_completed(futs):
            outcome, path, msg = fut.result()
            counts[outcome] += 1
            if outcome in ("crash", "hang"):
                i, name, what = futs[fut]
                crashes.append((name, what, path, msg))
    saved = []
    if crashes and args.findings:
        os.makedirs(args.findings, exist_ok=True)
        for name, what, path, msg in sorted(crashes):
            dest = os.path.join(args.findings, "mutant-%s-%s" % (args.seed, os.path.basename(path)))
            shutil.copy(path, dest)
            saved.append((name, what, dest, msg))
    else:
        saved = crashes
    return counts, saved
