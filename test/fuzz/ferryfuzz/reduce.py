"""Reducer: shrinks a failing generated program while the failure persists,
by deleting statements, keeping one branch of an `if`, unwrapping loops and
dropping functions, and writes the result out as a standalone reproducer."""

import copy
import os
import re
import time

from . import driver, gen


def sites(prog):
    """Every statement list of the program (function bodies and the blocks
    nested in them), outermost first."""
    out = []

    def walk(lst):
        out.append(lst)
        for s in lst:
            for b in s.blocks():
                walk(b)

    for f in [prog.compute, prog.main] + prog.hfuncs + prog.late:
        walk(f.body)
    return out


def candidates(prog):
    """Edits to try, as functions that change a deep copy: bigger ones first."""
    cands = []
    # Functions, kernels and device helpers no longer named elsewhere.
    cands.append(("drop unused functions", drop_unused))
    for si, lst in enumerate(sites(prog)):
        for i in range(len(lst)):
            if lst[i].removable:
                cands.append(("delete", lambda p, si=si, i=i: delete(p, si, i)))
            if isinstance(lst[i], gen.Compound) and lst[i].kind == "block":
                cands.append(("flatten", lambda p, si=si, i=i: flatten(p, si, i)))
            for ai in range(len(lst[i].simpler())):
                cands.append(("simplify", lambda p, si=si, i=i, ai=ai: simplify(p, si, i, ai)))
    # Try halves of long lists first: one test can then remove many lines.
    for si, lst in enumerate(sites(prog)):
        rem = [i for i, s in enumerate(lst) if s.removable]
        if len(rem) >= 4:
            half = len(rem) // 2
            for part in (rem[:half], rem[half:]):
                cands.insert(1, ("delete many", lambda p, si=si, part=part: delete_many(p, si, part)))
    return cands


def delete(p, si, i):
    del sites(p)[si][i]


def delete_many(p, si, idx):
    lst = sites(p)[si]
    for i in sorted(idx, reverse=True):
        del lst[i]


def flatten(p, si, i):
    """`{ ... }` left by an earlier simplification, spliced into its list
    (a clash of names makes the reference fail to build: not interesting)."""
    lst = sites(p)[si]
    lst[i:i + 1] = lst[i].blocks()[0]


def simplify(p, si, i, ai):
    lst = sites(p)[si]
    lst[i] = lst[i].simpler()[ai]


def drop_unused(p):
    changed = True
    while changed:
        changed = False
        text = p.text()
        for group in ("hfuncs", "late", "kernels", "kfuncs"):
            items = getattr(p, group)
            for it in list(items):
                name = it.name if isinstance(it, gen.Func) else \
                    re.search(r"(p\d+_\w+)\(", it).group(1)
                if len(re.findall(r"\b%s\b" % re.escape(name), text)) <= 1:
                    items.remove(it)
                    # A function pointer that named it goes too.
                    p.globals = [g for g in p.globals
                                 if not re.search(r"= %s;" % re.escape(name), g)]
                    changed = True
                    text = p.text()
        for g in list(p.globals):
            m = re.search(r"\(\*(\w+)\)|#define (\w+)|ferry::Buffer<int> \*?(\w+)", g)
            name = m.group(1) or m.group(2) or m.group(3)
            if len(re.findall(r"\b%s\b" % re.escape(name), text)) <= 1:
                p.globals.remove(g)
                changed = True
                text = p.text()


def reduce(project, seed, index, signature, budget_tests=200, budget_s=900, log=print,
           avoid=(), form=None, split=False):
    """signature: set of (policy, kind) of the original failure. Returns
    (program, tests, reproduced, problems)."""
    prog = gen.generate(seed, index, avoid, form)
    tag = prog.tag
    policies = sorted(set(p for p, _ in signature if p in driver.POLICIES)) or \
        list(driver.POLICIES)
    state = {"tests": 0, "last": None}

    def interesting(p):
        state["tests"] += 1
        project.set_files({"red": gen.render(seed, [p], "red", split)})
        project.build_all(["red", "red_ref"])
        r, _ = driver.check_file(project, "red", [tag], policies)
        got = set((pol, k) for pol, k, _ in r[tag])
        if got & signature:
            state["last"] = r[tag]
            return True
        return False

    if not interesting(prog):
        return prog, state["tests"], False, None
    t0 = time.time()
    progress = True
    while progress and state["tests"] < budget_tests and time.time() - t0 < budget_s:
        progress = False
        for what, edit in candidates(prog):
            if state["tests"] >= budget_tests or time.time() - t0 >= budget_s:
                break
            trial = copy.deepcopy(prog)
            try:
                edit(trial)
            except (IndexError, AttributeError):
                continue
            if trial.text() == prog.text():
                continue
            if interesting(trial):
                prog = trial
                progress = True
                log("  %s: %s, now %d lines" % (tag, what, prog.text().count("\n")))
                break  # the sites changed: enumerate again
    # Leave the reducer's project holding the reduced program's problems.
    interesting(prog)
    return prog, state["tests"], True, state["last"]


def write_finding(folder, seed, prog, problems, note="", split=False):
    """The reproducer: one file, or (split) a folder of the program's two
    sources and header, named after it (`fuzz.py check` takes either)."""
    os.makedirs(folder, exist_ok=True)
    stem = "seed%s-%s" % (seed, prog.tag)
    path = os.path.join(folder, stem + ".cpp")
    head = ["// Fuzz finding: seed %s, program %s (test/fuzz, reduced)." % (seed, prog.tag)]
    if note:
        head.append("// " + note)
    for pol, kind, detail in problems or []:
        lines = str(detail).strip().split("\n")
        lines = list(dict.fromkeys(l for l in lines if ": error:" in l))[:4] or lines[:8]
        for i, line in enumerate(lines):
            head.append("// %s %s: %s" % (pol, kind, line) if i == 0 else "//   " + line)
    head.append("// Reproduce: build it with ferry_target_sources and as the reference "
                "execution; run both with FERRY_DEVICE=cpu FERRY_POLICY=<policy>.")
    if split:
        path = os.path.join(folder, stem)
        os.makedirs(path, exist_ok=True)
        head[-1] = head[-1].replace("it with", "its two sources with")
        for suffix, text in gen.render_split(seed, [prog], stem).items():
            with open(os.path.join(path, stem + suffix), "w") as f:
                f.write(("\n".join(head) + "\n" if suffix == ".cpp" else "") + text)
        return path
    with open(path, "w") as f:
        f.write("\n".join(head) + "\n" + gen.render_file(seed, [prog]))
    return path
