#!/usr/bin/env python3
"""Size lint for the Swift sources: no file over 800 lines, no function over 120.

Usage: scripts/check-sizes.py [-v] [FOLDER_OR_FILE ...]   (default: Sources)

Counts every line of a file. A function's length runs from the line of its
`func`, `init`, `deinit` or `subscript` keyword to the line of the brace
that closes its body; braces inside strings (also multi-line and raw
strings, and their interpolations) and comments do not count. Nested
functions are measured on their own and also count in the function around
them.

Prints one line per finding, `path:line: ...` (with -v also the findings
that an exception allows), a summary line, and exits 1 when any file or
function is over its limit and not listed in EXCEPTIONS below. An exception
that is no longer needed, or names a file that does not exist, is reported
as a warning and does not fail the check. Paths are relative to the root
of the package the files are in (the folder holding Package.swift).
"""

import os
import re
import sys

MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 120

# Files allowed over MAX_FILE_LINES, each with its reason.
FILE_EXCEPTIONS: dict[str, str] = {}

# Functions allowed over MAX_FUNCTION_LINES, as "path:name" (every function
# of that name in that file), each with its reason.
FUNCTION_EXCEPTIONS: dict[str, str] = {}

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DECLARATIONS = {"func", "init", "deinit", "subscript"}
# Words that start another declaration: a declaration met before a body
# began had none (a protocol requirement).
OTHER_DECLARATIONS = DECLARATIONS | {"var", "let", "case", "class", "struct", "enum", "protocol", "extension"}
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def tokens(text):
    """Yields (line, kind, value) for code outside strings and comments.

    kind is "word" for identifiers and keywords (value the word, or the
    word after a `.`, marked by a leading dot), else "punct" for one of
    `{ } ( ) [ ]`.
    """
    i, n, line = 0, len(text), 1
    # Each open string: (hashes, multi-line, paren depth of its
    # interpolation when in one, else None).
    strings = []
    depth = 0  # parens open in the innermost interpolation
    previous = ""

    def string_start(at):
        """The string literal starting at `at`: (hashes, multiline, length) or None."""
        j = at
        while j < n and text[j] == "#":
            j += 1
        if j < n and text[j] == '"':
            hashes = j - at
            if text.startswith('"""', j):
                return hashes, True, hashes + 3
            return hashes, False, hashes + 1
        return None

    while i < n:
        c = text[i]
        if strings and strings[-1][2] is None:
            # Inside a string's text.
            hashes, multiline, _ = strings[-1]
            if c == "\n":
                line += 1
                i += 1
                if not multiline:
                    strings.pop()  # unterminated: stop at the line's end
                continue
            if c == "\\" and text.startswith("#" * hashes, i + 1):
                k = i + 1 + hashes
                if k < n and text[k] == "(":
                    strings[-1] = (hashes, multiline, 0)
                    depth = 0
                    i = k + 1
                    continue
                line += k < n and text[k] == "\n"
                i = k + 1
                continue
            close = ('"""' if multiline else '"') + "#" * hashes
            if text.startswith(close, i):
                strings.pop()
                if strings:
                    depth = strings[-1][2] or 0
                i += len(close)
                previous = "literal"
                continue
            i += 1
            continue
        # Code (top level or inside an interpolation).
        if c == "\n":
            line += 1
            i += 1
            continue
        if text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if text.startswith("/*", i):
            nesting, i = 1, i + 2
            while i < n and nesting:
                if text.startswith("/*", i):
                    nesting, i = nesting + 1, i + 2
                elif text.startswith("*/", i):
                    nesting, i = nesting - 1, i + 2
                else:
                    line += text[i] == "\n"
                    i += 1
            continue
        literal = string_start(i) if c in '#"' else None
        if literal:
            hashes, multiline, length = literal
            if strings:
                strings[-1] = (strings[-1][0], strings[-1][1], depth)
            strings.append((hashes, multiline, None))
            i += length
            continue
        if strings and c in "()":
            # Parens inside an interpolation: the last `)` returns to the string.
            if c == "(":
                depth += 1
            elif depth == 0:
                strings[-1] = (strings[-1][0], strings[-1][1], None)
                i += 1
                continue
            else:
                depth -= 1
            strings[-1] = (strings[-1][0], strings[-1][1], depth)
        m = WORD.match(text, i) if (c.isalpha() or c == "_") else None
        if m:
            word = m.group(0)
            yield line, "word", ("." + word) if previous == "." else word
            previous = word
            i = m.end()
            continue
        if c == "`":
            end = text.find("`", i + 1)
            i = n if end < 0 else end + 1
            previous = "word"
            continue
        if c in "{}()[]":
            yield line, "punct", c
        if not c.isspace():
            previous = c
        i += 1


def functions(text):
    """Yields (name, first line, last line) of every function body."""
    open_braces = []  # for each open brace: the function it starts, or None
    pending = None  # a declaration waiting for its body: [name, line, nesting]
    nesting = 0  # parens and brackets open since the pending declaration
    want_name = False
    for line, kind, value in tokens(text):
        if kind == "word":
            if want_name:
                pending[0] = value
                want_name = False
                continue
            if value in DECLARATIONS:
                pending, nesting = [value, line, 0], 0
                want_name = value == "func"
                continue
            if pending and nesting == 0 and value in OTHER_DECLARATIONS:
                pending = None
            continue
        want_name = False
        if value in "([":
            nesting += 1
        elif value in ")]":
            nesting -= 1
        elif value == "{":
            if pending and nesting == 0:
                open_braces.append(pending)
                pending = None
            else:
                open_braces.append(None)
        elif value == "}":
            if pending and nesting == 0:
                pending = None
            if open_braces:
                started = open_braces.pop()
                if started:
                    yield started[0], started[1], line


def swift_files(paths):
    for path in paths:
        if os.path.isfile(path):
            yield path
            continue
        for folder, subfolders, files in os.walk(path):
            subfolders.sort()
            for name in sorted(files):
                if name.endswith(".swift"):
                    yield os.path.join(folder, name)


def package_root(path):
    """The nearest folder at or above `path` that holds Package.swift, else ROOT."""
    folder = os.path.abspath(path)
    while True:
        if os.path.isfile(os.path.join(folder, "Package.swift")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return ROOT
        folder = parent


def relative(path):
    """`path` relative to its package's root (where the exceptions' paths start)."""
    full, root = os.path.abspath(path), package_root(path)
    if full.startswith(root + os.sep):
        return os.path.relpath(full, root)
    return path


def check(paths, out=sys.stdout, verbose=False):
    """Checks `paths`; prints the findings and returns the exit status."""
    failures, allowed, functions_seen = 0, 0, 0
    files_over, functions_over = set(), set()
    checked = set()
    for path in swift_files(paths):
        name = relative(path)
        checked.add(name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        count = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        if count > MAX_FILE_LINES:
            files_over.add(name)
            if name in FILE_EXCEPTIONS:
                allowed += 1
                if verbose:
                    print(f"{name}:1: note: {count} lines, allowed: {FILE_EXCEPTIONS[name]}", file=out)
            else:
                print(f"{name}:1: error: {count} lines, more than {MAX_FILE_LINES}", file=out)
                failures += 1
        for function, first, last in functions(text):
            functions_seen += 1
            length = last - first + 1
            if length <= MAX_FUNCTION_LINES:
                continue
            key = f"{name}:{function}"
            functions_over.add(key)
            if key in FUNCTION_EXCEPTIONS:
                allowed += 1
                if verbose:
                    print(f"{name}:{first}: note: {function} has {length} lines, allowed: {FUNCTION_EXCEPTIONS[key]}", file=out)
            else:
                print(f"{name}:{first}: error: {function} has {length} lines, more than {MAX_FUNCTION_LINES}", file=out)
                failures += 1
    # Exceptions for the files looked at (or that should have been there).
    roots = [relative(p).rstrip(os.sep) for p in paths]

    def in_scope(name):
        return any(name == r or name.startswith(r + os.sep) for r in roots)

    for name, reason in FILE_EXCEPTIONS.items():
        if not in_scope(name):
            continue
        if name not in checked:
            print(f"{name}: warning: listed in FILE_EXCEPTIONS but does not exist ({reason})", file=out)
        elif name not in files_over:
            print(f"{name}: warning: within {MAX_FILE_LINES} lines now; remove it from FILE_EXCEPTIONS", file=out)
    for key, reason in FUNCTION_EXCEPTIONS.items():
        name = key.rsplit(":", 1)[0]
        if not in_scope(name):
            continue
        if name not in checked:
            print(f"{key}: warning: listed in FUNCTION_EXCEPTIONS but the file does not exist ({reason})", file=out)
        elif key not in functions_over:
            print(f"{key}: warning: within {MAX_FUNCTION_LINES} lines now; remove it from FUNCTION_EXCEPTIONS", file=out)
    print(
        f"check-sizes: {len(checked)} files, {functions_seen} functions; {failures} over the limits"
        f" (files {MAX_FILE_LINES}, functions {MAX_FUNCTION_LINES} lines), {allowed} allowed by exceptions",
        file=out,
    )
    return 1 if failures else 0


def main(argv):
    if any(a in ("-h", "--help") for a in argv):
        print(__doc__.strip())
        return 0
    verbose = "-v" in argv or "--verbose" in argv
    argv = [a for a in argv if a not in ("-v", "--verbose")]
    paths = argv or [os.path.join(ROOT, "Sources")]
    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        print(f"check-sizes: no such file or folder: {', '.join(missing)}", file=sys.stderr)
        return 2
    return check(paths, verbose=verbose)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
