#!/usr/bin/env python3
"""Report import cycles between the modules of every crate in the workspace.

    scripts/check/module-cycles.py            # every member's lib and bins (with
                                              # skills-rig's own workspace)
    scripts/check/module-cycles.py -v         # also list each module's imports
    scripts/check/module-cycles.py skills-core skills-build   # some members
    scripts/check/module-cycles.py --self-test   # the checker on known cases
    scripts/check/module-cycles.py --ignore-ancestors   # child -> parent allowed
    scripts/check/module-cycles.py --allow-cycle 'skills-install (lib): a, b'
                                              # a known cycle, while it is cut

For each crate root (the library and every binary of each workspace
member; tests, benches and examples are not crate modules and are left
out) it walks the module tree from the `mod` declarations (`mod x;` with
`#[path]`, and inline `mod x { ... }`), reads every `use` declaration
(nested groups, `self`, `super`, `crate`, renames, globs, `pub use`
re-exports), and resolves each imported path to the module that defines
the item: a path through a re-export (`crate::Catalog`, re-exported from
`catalog`) counts as an import of the defining module, so a crate root
that re-exports its modules is not a hub that makes every module a loop.

Module A imports module B when a `use` in A names an item of B (or B
itself). A module's own descendants and ancestors count like any other
module: `super::Error` in a child is an import of the parent. Modules
under `#[cfg(test)]` are left out: a test may import anything. Paths
written out in code without a `use` (`crate::manifest::f(...)`,
`super::Error`, `child::f()`, and `alias::f()` through a name a `use`
bound) count as imports too; doc comments do not.

It prints every cycle (a strongly connected set of modules, with one loop
through it, then every import among those modules with its line: a
cycle is gone when enough of those are) and exits with
status 1 when there is one, 0 when there is none, so `scripts/test.sh` can
run it.

Layers: a crate root whose documentation has a `# Wings` section listing
its top-level modules, lowest first, as `//! - [`name`]: ...` lines
(skills-core's lib.rs), promises that each wing imports only from itself
and the wings listed before it. Every import that runs the other way is
reported with its line, as is a top-level module the list leaves out, and
either makes the exit status 1.
"""

import argparse
import os
import re
import sys
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

ITEM = re.compile(
    r"\b(?:fn|struct|enum|trait|type|const|static|union|mod|macro_rules!)\s+([A-Za-z_][A-Za-z0-9_]*)"
)


def strip(text):
    """The text with comments, strings and char literals blanked (newlines
    kept, so offsets and line numbers stay)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif (m := re.match(r'b?r(#*)"', text[i:])) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = '"' + m.group(1)
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "'":
            # A char literal ('a', '\n', '\u{1F600}', '"'), not a lifetime.
            m = re.match(r"'(?:\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'", text[i:])
            if m:
                out.append(" " * m.end())
                i += m.end()
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def matching_brace(text, open_at):
    depth = 0
    for j in range(open_at, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(text)


def visibility_start(text, at):
    """Where a `pub`/`pub(crate)` before offset `at` starts (else `at`)."""
    m = re.search(r"pub(\([^)]*\))?\s+$", text[:at])
    return m.start() if m else at


def attributes_start(text, at):
    """Where the outer attributes right before offset `at` start."""
    while True:
        stripped = text[:at].rstrip()
        if not stripped.endswith("]"):
            return at
        depth, j = 0, len(stripped) - 1
        while j >= 0:
            if stripped[j] == "]":
                depth += 1
            elif stripped[j] == "[":
                depth -= 1
                if depth == 0:
                    break
            j -= 1
        if j <= 0 or stripped[j - 1] != "#":
            return at
        at = j - 1


def is_test_only(attrs):
    return re.search(r"cfg\(\s*test\s*\)|cfg\(\s*all\(\s*test\b", attrs) is not None


class Module:
    def __init__(self, path, file, parent):
        self.path = path  # ("yaml", "scanner"); () for the root
        self.file = file
        self.parent = parent
        self.children = {}  # name -> Module
        self.items = set()  # names defined here
        self.aliases = {}  # name -> (absolute segments, line) via `use`
        self.globs = []  # (absolute segments, line)
        self.imports = []  # (absolute segments, line, is_glob)

    def name(self):
        return "::".join(self.path) or "crate"


class Crate:
    def __init__(self, label, root_file):
        self.label = label
        self.root = Module((), root_file, None)
        self.modules = [self.root]
        self.load(self.root, root_file)

    # -- reading the module tree ------------------------------------------

    def load(self, module, file, span=None, children_dir=None):
        """Reads `module` from `file` (all of it, or the inline module's
        body between the offsets `span`)."""
        raw, clean = read(file)
        lo, hi = span or (0, len(clean))
        if children_dir is None:
            stem = os.path.splitext(os.path.basename(file))[0]
            here = os.path.dirname(file)
            root_like = module.parent is None or stem == "mod"
            children_dir = here if root_like else os.path.join(here, stem)
        # Child modules first (their bodies are not this module's text).
        inner = []
        for m in re.finditer(r"\bmod\s+([A-Za-z_][A-Za-z0-9_]*)\s*([;{])", clean[lo:hi]):
            start, end = lo + m.start(), lo + m.end()
            if any(a <= start < b for a, b in inner):
                continue
            name, kind = m.group(1), m.group(2)
            body = None
            if kind == "{":
                close = matching_brace(clean, end - 1)
                body = (end, close)
                inner.append((start, close + 1))
            attr_start = attributes_start(clean, visibility_start(clean, start))
            if is_test_only(clean[attr_start:start]):
                continue
            child = Module(module.path + (name,), file, module)
            module.children[name] = child
            self.modules.append(child)
            if body is not None:
                self.load(child, file, body, os.path.join(children_dir, name))
                continue
            self.load_file_module(child, file, children_dir, raw[attr_start:start])
        # `internal_modules! { a; #[cfg(..)] b; }` (skills-build's lib.rs)
        # declares each listed name as a file module.
        for block in re.finditer(r"\binternal_modules!\s*\{", clean[lo:hi]):
            open_at = lo + block.end() - 1
            close = matching_brace(clean, open_at)
            entries = r"((?:#\[[^\]]*\]\s*)*)([A-Za-z_][A-Za-z0-9_]*)\s*;"
            for m in re.finditer(entries, clean[open_at + 1 : close]):
                if is_test_only(m.group(1)):
                    continue
                name = m.group(2)
                child = Module(module.path + (name,), file, module)
                module.children[name] = child
                self.modules.append(child)
                self.load_file_module(child, file, children_dir, m.group(1))
        own = list(clean[lo:hi])
        for a, b in inner:
            for k in range(a - lo, b - lo):
                if own[k] != "\n":
                    own[k] = " "
        own = "".join(own)
        module.items.update(ITEM.findall(own))
        uses = list(re.finditer(r"\buse\s+([^;]*);", own))
        # Paths written out in code: `crate::manifest::f(...)`, `super::X`.
        in_use = lambda at: any(u.start() <= at < u.end() for u in uses)
        for m in re.finditer(r"(?<![A-Za-z0-9_])\$?((?:crate|super|self)(?:::[A-Za-z_][A-Za-z0-9_]*)+)", own):
            if in_use(m.start()):
                continue
            segments = m.group(1).split("::")
            segments[0] = segments[0].lstrip("$")
            absolute = self.absolute(module, segments)
            if absolute is not None:
                module.imports.append((absolute, line_at(file, lo + m.start()), False))
        # And `child::f(...)`: a path from a child module of this one.
        for m in re.finditer(r"(?<![A-Za-z0-9_:$])([a-z_][a-z0-9_]*)((?:::[A-Za-z_][A-Za-z0-9_]*)+)", own):
            if m.group(1) in module.children and not in_use(m.start()):
                segments = [m.group(1)] + m.group(2).split("::")[1:]
                module.imports.append(
                    (list(module.path) + segments, line_at(file, lo + m.start()), False)
                )
        for m in uses:
            attr_start = attributes_start(own, visibility_start(own, m.start()))
            if is_test_only(own[attr_start : m.start()]):
                continue
            line = line_at(file, lo + m.start())
            for segments, alias, glob in expand(normalize(m.group(1))):
                absolute = self.absolute(module, segments)
                if absolute is None:
                    continue  # another crate
                module.imports.append((absolute, line, glob))
                if glob:
                    module.globs.append((absolute, line))
                elif alias != "self":
                    module.aliases[alias] = (absolute, line)
        # And `alias::f(...)`: a path through a name a `use` bound
        # (`use super::report;` then `report::text::lines()` is an import
        # of `report::text`, not only of `report`).
        for m in re.finditer(r"(?<![A-Za-z0-9_:$])([A-Za-z_][A-Za-z0-9_]*)((?:::[A-Za-z_][A-Za-z0-9_]*)+)", own):
            name = m.group(1)
            if name in module.children or name not in module.aliases or in_use(m.start()):
                continue
            target, _ = module.aliases[name]
            segments = list(target) + m.group(2).split("::")[1:]
            module.imports.append((segments, line_at(file, lo + m.start()), False))

    def load_file_module(self, child, file, children_dir, attrs):
        """Loads the file module `child`, declared in `file` with the
        attributes `attrs` (a `#[path]` among them, maybe)."""
        name = child.path[-1]
        path_attr = re.search(r'#\[\s*path\s*=\s*"([^"]+)"', attrs)
        if path_attr:
            target = os.path.join(os.path.dirname(file), path_attr.group(1))
        else:
            target = os.path.join(children_dir, name + ".rs")
            if not os.path.exists(target):
                target = os.path.join(children_dir, name, "mod.rs")
        if not os.path.exists(target):
            raise SystemExit(f"{file}: module {name}: no file {target}")
        self.load(child, target)

    def absolute(self, module, segments):
        """The path from the crate root, or None for another crate."""
        first = segments[0]
        if first == "crate":
            return list(segments[1:])
        if first in ("super", "self"):
            at = module
            rest = list(segments)
            while rest and rest[0] in ("super", "self"):
                if rest[0] == "super":
                    at = at.parent or at
                rest.pop(0)
            return list(at.path) + rest
        if first == "" or first in ("std", "core", "alloc"):
            return None
        # 2018 paths: a name in scope here (a child module or an item or
        # import of this module) before an extern crate of that name. The
        # children are known by now (inline and file modules are loaded
        # before the uses are read).
        if first in module.children or first in module.items:
            return list(module.path) + list(segments)
        return None

    # -- resolving imports to defining modules ----------------------------

    def module_at(self, path):
        at = self.root
        for segment in path:
            at = at.children.get(segment)
            if at is None:
                return None
        return at

    def resolve(self, path, seen=None):
        """The module defining what `path` (from the root) names."""
        seen = set() if seen is None else seen
        at = self.root
        rest = list(path)
        while rest and rest[0] in at.children:
            at = at.children[rest.pop(0)]
        if not rest:
            return at
        name = rest[0]
        key = (at.path, name)
        if key in seen:
            return at
        seen.add(key)
        if name in at.items:
            return at
        if name in at.aliases:
            target, _ = at.aliases[name]
            return self.resolve(target + rest[1:], seen)
        for glob, _ in at.globs:
            source = self.module_at(glob)
            if source is not None and (
                name in source.items or name in source.aliases or name in source.children
            ):
                return self.resolve(glob + rest, seen)
        return at

    def wings(self):
        """The top-level modules the root's `# Wings` section lists, lowest
        first (None when it has no such section)."""
        raw, _ = read(self.root.file)
        docs = [m.group(1) for m in re.finditer(r"(?m)^//!(.*)$", raw)]
        try:
            start = next(i for i, d in enumerate(docs) if d.strip() == "# Wings")
        except StopIteration:
            return None
        listed = []
        for d in docs[start + 1 :]:
            if d.strip().startswith("#"):
                break
            m = re.match(r"\s*- \[`([A-Za-z_][A-Za-z0-9_]*)`\]", d)
            if m:
                listed.append(m.group(1))
        return listed

    def layer_problems(self, edges):
        """Imports that run up the `# Wings` order, and top-level modules
        it does not place: (text, line) pairs."""
        listed = self.wings()
        if listed is None:
            return []
        problems = []
        rank = {name: i for i, name in enumerate(listed)}
        for name in sorted(self.root.children):
            if name not in rank:
                problems.append((f"module {name} is in no wing of the crate root's `# Wings` list", self.root.file))
        for name in listed:
            if name not in self.root.children:
                problems.append((f"the `# Wings` list names {name}, which is no module", self.root.file))
        for (a, b), line in sorted(edges.items(), key=lambda e: e[1]):
            if not a.path or not b.path:
                continue  # the crate root re-exports from every wing
            wa, wb = a.path[0], b.path[0]
            if wa != wb and wa in rank and wb in rank and rank[wb] > rank[wa]:
                problems.append((f"{a.name()} -> {b.name()}: wing {wa} imports from {wb}, a wing above it", line))
        return problems

    def edges(self, ignore_ancestors=False):
        """{(from, to): line} between distinct modules."""
        found = {}
        for module in self.modules:
            for path, line, glob in module.imports:
                target = self.resolve(path)
                if target is None or target is module:
                    continue
                if ignore_ancestors and module.path[: len(target.path)] == target.path:
                    continue
                found.setdefault((module, target), line)
        return found


_FILES = {}


def read(file):
    """The file's text, and the same with comments and strings blanked."""
    if file not in _FILES:
        raw = open(file, encoding="utf-8").read()
        starts = [0] + [m.end() for m in re.finditer("\n", raw)]
        _FILES[file] = (raw, strip(raw), starts)
    raw, clean, _ = _FILES[file]
    return raw, clean


def line_at(file, offset):
    starts = _FILES[file][2]
    lo, hi = 0, len(starts)
    while lo + 1 < hi:
        mid = (lo + hi) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid
    return f"{os.path.relpath(file, ROOT)}:{lo + 1}"


def normalize(tree):
    """A use tree with its whitespace reduced to the spaces around `as`."""
    tree = re.sub(r"\s+", " ", tree).strip()
    return re.sub(r"\s*(::|\{|\}|,)\s*", r"\1", tree)


def split_path(text):
    """`a::b::c` as segments; a leading `::` (another crate) as ``."""
    segments = text.split("::")
    if text.startswith("::"):
        return [""] + [s for s in segments[1:] if s]
    return [s for s in segments if s]


def expand(tree, prefix=()):
    """The paths a use tree imports: (segments, the name bound, is_glob)."""
    brace = tree.find("{")
    if brace < 0:
        if tree.endswith("*"):
            return [(list(prefix) + split_path(tree[:-1]), None, True)]
        target, _, bound = tree.partition(" as ")
        full = list(prefix) + split_path(target)
        if full and full[-1] == "self":
            full = full[:-1]
        name = bound or (full[-1] if full else "self")
        return [(full, name, False)]
    head = split_path(tree[:brace])
    body = tree[brace + 1 : tree.rfind("}")]
    out = []
    for part in split_top(body):
        if part:
            out.extend(expand(part, tuple(prefix) + tuple(head)))
    return out


def split_top(body):
    parts, depth, start = [], 0, 0
    for j, c in enumerate(body):
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(body[start:j])
            start = j + 1
    parts.append(body[start:])
    return parts


def cycles(nodes, edges):
    """Strongly connected sets of more than one module (Tarjan)."""
    graph = {node: [] for node in nodes}
    for a, b in edges:
        graph[a].append(b)
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w is v:
                    break
            if len(component) > 1:
                out.append(component)

    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            visit(v)
    return out


def loop_through(component, edges):
    """One loop through the component's first module (breadth first)."""
    members = set(component)
    start = min(component, key=lambda m: m.name())
    previous = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for (a, b) in edges:
            if a is v and b in members:
                if b is start:
                    path = [v]
                    while previous[path[-1]] is not None:
                        path.append(previous[path[-1]])
                    return list(reversed(path)) + [start]
                if b not in previous:
                    previous[b] = v
                    queue.append(b)
    return [start]


def longest_chain(crate, edges):
    """The longest path of imports between the crate's modules, as a list of
    modules, the crate root's own imports left out (it names every module
    it re-exports). Modules in a cycle are counted once: the chain is taken
    over the graph's strongly connected components."""
    root = crate.modules[0]
    succ = {}
    for a, b in edges:
        if a is not root and b is not root:
            succ.setdefault(a, []).append(b)
    memo = {}
    on_path = set()

    def chain_from(v):
        if v in memo:
            return memo[v]
        on_path.add(v)
        best = []
        for w in succ.get(v, ()):
            if w in on_path:
                continue  # a cycle, reported on its own
            candidate = chain_from(w)
            if len(candidate) > len(best):
                best = candidate
        on_path.discard(v)
        memo[v] = [v] + best
        return memo[v]

    longest = []
    for module in sorted(crate.modules[1:], key=lambda m: m.name()):
        candidate = chain_from(module)
        if len(candidate) > len(longest):
            longest = candidate
    return longest


def crate_roots(member):
    directory = os.path.join(ROOT, member)
    manifest = tomllib.load(open(os.path.join(directory, "Cargo.toml"), "rb"))
    name = manifest["package"]["name"]
    roots = []
    lib = manifest.get("lib", {}).get("path")
    lib = os.path.join(directory, lib or "src/lib.rs")
    if os.path.exists(lib):
        roots.append((f"{name} (lib)", lib))
    bins = {}
    if os.path.exists(os.path.join(directory, "src/main.rs")):
        bins[name] = os.path.join(directory, "src/main.rs")
    bin_dir = os.path.join(directory, "src/bin")
    if os.path.isdir(bin_dir):
        for entry in sorted(os.listdir(bin_dir)):
            full = os.path.join(bin_dir, entry)
            if entry.endswith(".rs"):
                bins[entry[:-3]] = full
            elif os.path.exists(os.path.join(full, "main.rs")):
                bins[entry] = os.path.join(full, "main.rs")
    for target in manifest.get("bin", []):
        if "path" in target:
            bins[target["name"]] = os.path.join(directory, target["path"])
    for bin_name, path in sorted(bins.items()):
        roots.append((f"{name} (bin {bin_name})", path))
    return roots


def self_test():
    """The checker on small crates whose cycles are known."""
    import subprocess
    import tempfile

    cases = {
        # A loop through a nested group, `self` and a rename.
        "loop": (
            {
                "src/lib.rs": "mod a;\nmod b;\nmod c;\n",
                "src/a.rs": "use crate::{b::{self, B as Renamed}};\npub struct A;\n",
                "src/b.rs": "use super::c::C;\npub struct B;\n",
                "src/c.rs": "pub struct C;\nfn f() -> crate::a::A { crate::a::A }\n",
            },
            ["cycle among 3 modules: a, b, c"],
        ),
        # Re-exports from the root resolve to the defining module; tests,
        # comments and strings are not imports; another crate is not read.
        "clean": (
            {
                "src/lib.rs": "mod a;\nmod b;\npub use a::A;\npub use b::*;\n",
                "src/a.rs": "use crate::B; // use crate::A;\npub struct A(B);\n"
                "#[cfg(test)]\nmod tests { use crate::A; }\n",
                "src/b.rs": 'pub struct B;\nconst S: &str = "use crate::a::A;";\n'
                "fn g() { let _ = '{'; }\nuse serde::Serialize;\n",
            },
            [],
        ),
        # A child that uses its parent's item while the parent uses it; an
        # inline module; a binary's own tree.
        "parent": (
            {
                "src/lib.rs": "mod outer;\n",
                "src/outer/mod.rs": "mod inner;\npub struct P;\nfn f() { inner::g(); }\n",
                "src/outer/inner.rs": "pub fn g() -> super::P { super::P }\n",
                "src/main.rs": "mod x { pub use crate::y::Y; pub struct X; }\nmod y { pub struct Y(super::x::X); }\nfn main() {}\n",
            },
            ["(lib): cycle among 2 modules: outer, outer::inner", "(bin demo): cycle among 2 modules: x, y"],
        ),
        # A path written through a name a `use` bound: `report::text::f()`
        # after `use super::report;` imports `report::text`, which imports
        # back (skills-install's refresh and report::text had this loop).
        "use alias": (
            {
                "src/lib.rs": "mod report;\nmod refresh;\n",
                "src/report/mod.rs": "pub mod text;\n",
                "src/report/text.rs": "use crate::refresh::Refreshed;\npub fn lines(_: &Refreshed) {}\n",
                "src/refresh.rs": "use super::report;\npub struct Refreshed;\n"
                "fn f() { report::text::lines(&Refreshed) }\n",
            },
            ["cycle among 2 modules: refresh, report::text"],
        ),
        # Modules listed in `internal_modules!` (skills-build's lib.rs) are
        # read like `mod` declarations, attributes and all.
        "macro list": (
            {
                "src/lib.rs": "macro_rules! internal_modules { ($($n:ident;)*) => {} }\n"
                "internal_modules! {\n    a;\n    #[cfg(feature = \"x\")]\n    b;\n}\n",
                "src/a.rs": "use crate::b::B;\npub struct A;\n",
                "src/b.rs": "pub struct B(crate::a::A);\n",
            },
            ["cycle among 2 modules: a, b"],
        ),
        # Wings listed in the root's docs, lowest first: an import up the
        # list is reported, and so is a module the list leaves out.
        "wings": (
            {
                "src/lib.rs": "//! # Wings\n//!\n//! - [`low`]: below;\n//! - [`high`]: above.\n"
                "//!\n//! # Other\n//!\n//! - [`stray`]: not a wing list.\n"
                "pub mod low;\npub mod high;\npub mod stray;\npub use low::L;\n",
                "src/low.rs": "pub struct L;\npub fn f() -> crate::high::H { crate::high::H }\n",
                "src/high.rs": "pub struct H;\n",
                "src/stray.rs": "",
            },
            [],
            ["low -> high: wing low imports from high", "module stray is in no wing"],
        ),
    }
    # Without a third part, a case has no import against its wings.
    cases = {name: case if len(case) == 3 else (*case, []) for name, case in cases.items()}
    # The looser rule: the child may use its parent; the binary's loop stays.
    cases["parent, --ignore-ancestors"] = (
        cases["parent"][0],
        ["(bin demo): cycle among 2 modules: x, y"],
        [],
    )
    # A known cycle allowed by name passes; the others still fail.
    cases["use alias, --allow-cycle"] = (cases["use alias"][0], [], [])
    failures = 0
    for name, (files, expected, against) in cases.items():
        with tempfile.TemporaryDirectory() as root:
            with open(os.path.join(root, "Cargo.toml"), "w") as f:
                f.write('[workspace]\nmembers = ["demo"]\n')
            os.makedirs(os.path.join(root, "demo"))
            with open(os.path.join(root, "demo", "Cargo.toml"), "w") as f:
                f.write('[package]\nname = "demo"\nversion = "0.0.0"\n')
            for path, text in files.items():
                full = os.path.join(root, "demo", path)
                os.makedirs(os.path.dirname(full), exist_ok=True)
                with open(full, "w") as f:
                    f.write(text)
            run = subprocess.run(
                [sys.executable, __file__, "--root", root]
                + (["--ignore-ancestors"] if "--ignore-ancestors" in name else [])
                + (["--allow-cycle", "demo (lib): refresh, report::text"] if "--allow-cycle" in name else []),
                capture_output=True,
                text=True,
            )
            lines = [l for l in run.stdout.splitlines() if "cycle among" in l]
            wrong = [l for l in run.stdout.splitlines() if l.startswith("demo") and "wing" in l]
            ok = run.returncode == (1 if expected or against else 0) and len(lines) == len(expected)
            ok = ok and all(any(e in l for l in lines) for e in expected)
            ok = ok and len(wrong) == len(against) and all(any(e in l for l in wrong) for e in against)
            print(f"self-test {name}: {'ok' if ok else 'FAILED'}")
            if not ok:
                failures += 1
                print(run.stdout + run.stderr)
    # --max-chain: a chain of three modules (a -> b -> c) passes a limit of
    # 3, fails one of 2, and a limit for a crate there is not fails.
    chain = {
        "src/lib.rs": "mod a;\nmod b;\nmod c;\n",
        "src/a.rs": "use crate::b::B;\npub struct A(B);\n",
        "src/b.rs": "use crate::c::C;\npub struct B(C);\n",
        "src/c.rs": "pub struct C;\n",
    }
    for limit, want in [("demo: 3", 0), ("demo (lib): 2", 1), ("nosuch: 9", 1)]:
        with tempfile.TemporaryDirectory() as root:
            with open(os.path.join(root, "Cargo.toml"), "w") as f:
                f.write('[workspace]\nmembers = ["demo"]\n')
            os.makedirs(os.path.join(root, "demo", "src"))
            with open(os.path.join(root, "demo", "Cargo.toml"), "w") as f:
                f.write('[package]\nname = "demo"\nversion = "0.0.0"\n')
            for path, text in chain.items():
                with open(os.path.join(root, "demo", path), "w") as f:
                    f.write(text)
            run = subprocess.run(
                [sys.executable, __file__, "--root", root, "--max-chain", limit],
                capture_output=True,
                text=True,
            )
            ok = run.returncode == want
            print(f"self-test --max-chain {limit!r}: {'ok' if ok else 'FAILED'}")
            if not ok:
                failures += 1
                print(run.stdout + run.stderr)
    return 1 if failures else 0


def nested_members(workspace):
    """The members of the workspaces the root excludes that list members of
    their own (skills-rig's), as paths from the root."""
    out = []
    for excluded in workspace["workspace"].get("exclude", []):
        path = os.path.join(ROOT, excluded, "Cargo.toml")
        if not os.path.exists(path):
            continue
        nested = tomllib.load(open(path, "rb")).get("workspace", {})
        out += [os.path.normpath(os.path.join(excluded, m)) for m in nested.get("members", [])]
    return out


def main():
    global ROOT
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("members", nargs="*", help="workspace members (default: all)")
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--root", help="the workspace (default: this repository)")
    parser.add_argument(
        "--ignore-ancestors",
        action="store_true",
        help="leave out a module's imports from its ancestors (super::X): a looser rule",
    )
    parser.add_argument(
        "--allow-cycle",
        action="append",
        default=[],
        metavar="'CRATE: A, B'",
        help="a known cycle (as the report names it) that does not fail the check "
        "while it is being cut; one that is no longer found fails it",
    )
    parser.add_argument(
        "--longest-chain",
        action="store_true",
        help="print each crate's longest chain of imports (crate root's imports left out)",
    )
    parser.add_argument(
        "--max-chain",
        action="append",
        default=[],
        metavar="'CRATE: N'",
        help="fail when CRATE's longest import chain holds more than N modules",
    )
    parser.add_argument("--self-test", action="store_true", help="check the checker")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if args.root:
        ROOT = os.path.abspath(args.root)
    workspace = tomllib.load(open(os.path.join(ROOT, "Cargo.toml"), "rb"))
    members = args.members or workspace["workspace"]["members"] + nested_members(workspace)
    found = upward = too_long = 0
    allowed = set(args.allow_cycle)
    limits = {}
    limited = set()
    for limit in args.max_chain:
        crate_name, _, n = limit.partition(":")
        limits[crate_name.strip()] = int(n)
    for member in members:
        for label, root in crate_roots(member):
            crate = Crate(label, root)
            edges = crate.edges(args.ignore_ancestors)
            if args.verbose:
                print(f"{label}: {len(crate.modules)} modules")
                for (a, b), line in sorted(edges.items(), key=lambda e: (e[0][0].name(), e[0][1].name())):
                    print(f"  {a.name()} -> {b.name()}  ({line})")
            for component in cycles(crate.modules, edges):
                names = sorted(m.name() for m in component)
                known = f"{label}: {', '.join(names)}"
                if known in allowed:
                    allowed.discard(known)
                    print(f"{label}: allowed while it is cut (--allow-cycle): {', '.join(names)}")
                    continue
                found += 1
                print(f"{label}: cycle among {len(names)} modules: {', '.join(names)}")
                loop = loop_through(component, edges)
                print("  one loop:")
                for a, b in zip(loop, loop[1:]):
                    print(f"    {a.name()} -> {b.name()}  ({edges[(a, b)]})")
                members = set(component)
                inside = sorted(
                    ((a.name(), b.name(), line) for (a, b), line in edges.items()
                     if a in members and b in members),
                )
                print(f"  every import among them ({len(inside)}):")
                for a, b, line in inside:
                    print(f"    {a} -> {b}  ({line})")
            for text, where in crate.layer_problems(edges):
                upward += 1
                print(f"{label}: {text}  ({where})")
            limit = limits.get(label, limits.get(label.split(" (")[0]))
            if limit is not None:
                limited.add(label.split(" (")[0] if label not in limits else label)
            if args.longest_chain or limit is not None:
                chain = longest_chain(crate, edges)
                if args.longest_chain or (limit is not None and len(chain) > limit):
                    print(f"{label}: longest import chain, {len(chain)} modules: "
                          + " -> ".join(m.name() for m in chain))
                if limit is not None and len(chain) > limit:
                    too_long += 1
                    print(f"{label}: the chain is longer than {limit} modules (--max-chain)")
    if found:
        print(f"{found} import cycle{'s' if found != 1 else ''}")
    if upward:
        print(f"{upward} import{'s' if upward != 1 else ''} against the wings' order")
    for known in sorted(allowed):
        found += 1
        print(f"--allow-cycle {known!r}: no such cycle any more; remove the allowance")
    for name in sorted(set(limits) - limited):
        too_long += 1
        print(f"--max-chain {name!r}: no such crate (name it as in Cargo.toml, or as CRATE (lib))")
    if found or upward or too_long:
        return 1
    print("no import cycles between modules, no import against a crate's wings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
