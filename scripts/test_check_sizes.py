#!/usr/bin/env python3
"""Tests of scripts/check-sizes.py on Swift files written to a temporary folder.

Run: /usr/bin/python3 scripts/test_check_sizes.py (scripts/test.sh runs it).
"""

import importlib.util
import io
import os
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = importlib.util.spec_from_file_location("check_sizes", os.path.join(HERE, "check-sizes.py"))
check_sizes = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(check_sizes)


def function(name, body_lines, filler="        x += 1"):
    """A Swift function of `body_lines + 2` lines."""
    return [f"    func {name}() {{"] + [filler] * body_lines + ["    }"]


class CheckSizesTests(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.root = self.folder.name
        self.saved = (check_sizes.ROOT, check_sizes.FILE_EXCEPTIONS, check_sizes.FUNCTION_EXCEPTIONS)
        check_sizes.ROOT = self.root
        check_sizes.FILE_EXCEPTIONS = {}
        check_sizes.FUNCTION_EXCEPTIONS = {}

    def tearDown(self):
        check_sizes.ROOT, check_sizes.FILE_EXCEPTIONS, check_sizes.FUNCTION_EXCEPTIONS = self.saved
        self.folder.cleanup()

    def write(self, name, lines):
        path = os.path.join(self.root, "Sources", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        return path

    def run_check(self):
        out = io.StringIO()
        status = check_sizes.check([os.path.join(self.root, "Sources")], out=out)
        return status, out.getvalue()

    def test_a_fine_file_passes(self):
        self.write("Fine.swift", ["struct Fine {"] + function("a", 118) + function("b", 10) + ["}"])
        status, out = self.run_check()
        self.assertEqual(status, 0, out)
        self.assertNotIn("error", out)
        self.assertIn("2 functions", out)

    def test_a_file_over_800_lines_fails(self):
        self.write("Long.swift", ["// a line"] * 801)
        self.write("Limit.swift", ["// a line"] * 800)
        status, out = self.run_check()
        self.assertEqual(status, 1)
        self.assertIn("Sources/Long.swift:1: error: 801 lines", out)
        self.assertNotIn("Limit.swift", out)

    def test_a_function_over_120_lines_fails(self):
        self.write("LongFunction.swift", ["struct S {"] + function("short", 118) + function("long", 119) + ["}"])
        status, out = self.run_check()
        self.assertEqual(status, 1)
        self.assertIn("LongFunction.swift:122: error: long has 121 lines", out)
        self.assertNotIn("short", out)

    def test_braces_in_strings_and_comments_do_not_count(self):
        # Closing braces in every kind of string and comment would end the
        # function early; opening ones would run it on to the file's end.
        tricky = [
            '        let a = "}}}"',
            '        let b = #"}"\\"#',
            '        let c = "\\("}")\\(f({ 1 }))"',
            '        // }}}',
            '        /* } /* nested } */ } */',
            '        let d = """',
            '            } " "" }',
            '            \\(g { "}" })',
            '            """',
            '        let e = ##"""',
            '            }"""# }',
            '            """##',
            '        let f = "{{{"',
        ]
        body = tricky + ["        x += 1"] * (119 - len(tricky))
        self.write("Strings.swift", ["struct S {", "    func long() {"] + body + ["    }"] + function("after", 3) + ["}"])
        status, out = self.run_check()
        self.assertEqual(status, 1, out)
        self.assertIn("Strings.swift:2: error: long has 121 lines", out)
        self.assertNotIn("after", out)

    def test_requirements_without_bodies_and_calls_of_init_are_not_functions(self):
        lines = ["protocol P {", "    func a()", "    init(x: Int)", "    var v: Int { get }", "}"]
        lines += ["struct S {"] + function("b", 119, filler="        let s = S.init()") + ["}"]
        self.write("Protocol.swift", lines)
        status, out = self.run_check()
        self.assertEqual(status, 1, out)
        self.assertIn("Protocol.swift:7: error: b has 121 lines", out)
        self.assertIn("1 functions", out)

    def test_exceptions_allow_and_warn_when_stale(self):
        self.write("Long.swift", ["struct S {"] + function("long", 130) + ["}"] + ["// a line"] * 700)
        self.write("Short.swift", ["struct S {"] + function("fine", 3) + ["}"])
        check_sizes.FILE_EXCEPTIONS = {
            os.path.join("Sources", "Long.swift"): "being split",
            os.path.join("Sources", "Short.swift"): "was long",
            os.path.join("Sources", "Gone.swift"): "moved away",
        }
        check_sizes.FUNCTION_EXCEPTIONS = {
            os.path.join("Sources", "Long.swift") + ":long": "being split",
            os.path.join("Sources", "Short.swift") + ":fine": "was long",
        }
        status, out = self.run_check()
        self.assertEqual(status, 0, out)
        self.assertIn("Short.swift: warning: within 800 lines now", out)
        self.assertIn("Gone.swift: warning: listed in FILE_EXCEPTIONS but does not exist", out)
        self.assertIn("Short.swift:fine: warning: within 120 lines now", out)
        self.assertNotIn("Long.swift: warning", out)
        self.assertIn("2 allowed by exceptions", out)


if __name__ == "__main__":
    unittest.main()
