"""scripts/docs_tables.py on documents written here: a block is filled from its file, and a marker
without its pair, a missing file or a missing variant is one message, with nothing written. Bad input
exits 2, a stale block under --check 1; no page is written unless every page could be filled, and a
page is replaced whole or not at all."""
import contextlib
import errno
import importlib.util
import io
import json
import lzma
import os
import tempfile
import unittest
from unittest import mock

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
spec = importlib.util.spec_from_file_location("docs_tables", os.path.join(SOURCE, "scripts", "docs_tables.py"))
docs_tables = importlib.util.module_from_spec(spec)
spec.loader.exec_module(docs_tables)

TABLE = "results/h200/ci-timed-wall.txt"
RESULTS = "results/h200/reduce-2p28.json"


class DocsTablesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.page = os.path.join(self.tmp.name, "page.md")

    def tearDown(self):
        self.tmp.cleanup()

    def run_main(self, *args):
        """main(args): None, or what it said on stderr; its exit code in self.code."""
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                docs_tables.main(list(args))
                self.code = 0
                return None
            except SystemExit as e:
                self.code = 1 if isinstance(e.code, str) else e.code  # sys.exit("why") exits 1
                return err.getvalue() + (e.code if isinstance(e.code, str) else "")

    def run_on(self, text, *options):
        with open(self.page, "w") as f:
            f.write(text)
        try:
            return self.run_main(*options, self.page)
        finally:
            with open(self.page) as f:
                self.after = f.read()

    def results_file(self, rows):
        """A copy of RESULTS with the rows that rows(results) returns; its path."""
        with open(os.path.join(SOURCE, RESULTS)) as f:
            doc = json.load(f)
        path = os.path.join(self.tmp.name, "results.json")
        with open(path, "w") as f:
            json.dump(dict(doc, results=rows(doc["results"])), f)
        return path

    def assertRefused(self, message, text, *options):
        """The page is refused with one line holding message, exit 2, and left as it was."""
        said = self.run_on(text, *options)
        self.assertEqual(self.code, 2, said)
        self.assertIn(message, said)
        self.assertEqual(said.count("\n"), 1, said)
        self.assertEqual(self.after, text)

    def test_a_block_is_filled(self):
        self.assertIsNone(self.run_on(f"<!-- table: {TABLE} -->\nold\n<!-- /table -->\n"))
        self.assertIn("```text\n", self.after)
        self.assertNotIn("old", self.after)

    def test_an_unclosed_marker_swallows_nothing(self):
        text = f"<!-- table: {TABLE} -->\nold\n# kept\n<!-- table: {TABLE} -->\nx\n<!-- /table -->\n"
        self.assertIn("without their pair", self.run_on(text))
        self.assertEqual(self.after, text)

    def test_a_mismatched_close_is_refused(self):
        self.assertIn("without their pair", self.run_on(f"<!-- table: {TABLE} -->\nx\n<!-- /summary -->\n"))

    def test_a_missing_file_or_variant_names_the_line(self):
        self.assertIn("page.md:2: table of results/h200/nope.txt",
                      self.run_on("text\n<!-- table: results/h200/nope.txt -->\n<!-- /table -->\n"))
        self.assertIn("no result of variant 'nope'",
                      self.run_on("<!-- example: results/h200/reduce-2p28.json#nope -->\n<!-- /example -->\n"))

    def test_no_page_is_written_when_a_later_one_fails(self):
        later = os.path.join(self.tmp.name, "later.md")
        with open(later, "w") as f:
            f.write("<!-- table: results/h200/nope.txt -->\n<!-- /table -->\n")
        text = f"<!-- table: {TABLE} -->\nold\n<!-- /table -->\n"
        with open(self.page, "w") as f:
            f.write(text)
        self.assertIn("later.md:1: table of results/h200/nope.txt", self.run_main(self.page, later))
        self.assertEqual(self.code, 2)
        with open(self.page) as f:
            self.assertEqual(f.read(), text)

    def test_a_page_is_replaced_keeping_its_mode(self):
        with open(self.page, "w") as f:
            f.write(f"<!-- table: {TABLE} -->\nold\n<!-- /table -->\n")
        os.chmod(self.page, 0o640)
        self.assertIsNone(self.run_main(self.page))
        self.assertEqual(os.stat(self.page).st_mode & 0o777, 0o640)
        self.assertEqual(os.listdir(self.tmp.name), ["page.md"])

    def test_a_failed_write_leaves_the_page_and_no_temporary_file(self):
        full = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        with mock.patch.object(docs_tables.os, "fsync", side_effect=full):
            self.assertRefused("page.md: cannot write: No space left on device",
                               f"<!-- table: {TABLE} -->\nold\n<!-- /table -->\n")
        self.assertEqual(os.listdir(self.tmp.name), ["page.md"])

    def test_a_read_only_page_is_refused(self):
        text = f"<!-- table: {TABLE} -->\nold\n<!-- /table -->\n"
        with open(self.page, "w") as f:
            f.write(text)
        os.chmod(self.page, 0o444)
        # root may write any file: os.access then answers as it would for any other user
        as_user = mock.patch.object(docs_tables.os, "access", return_value=False) if os.geteuid() == 0 else \
            contextlib.nullcontext()
        with as_user:
            said = self.run_main(self.page)
        self.assertEqual(self.code, 2)
        self.assertIn("page.md: cannot write: Permission denied", said)
        with open(self.page) as f:
            self.assertEqual(f.read(), text)

    def test_an_unreadable_page_or_file_is_one_line(self):
        with open(self.page, "wb") as f:
            f.write(b"caf\xe9\n")
        self.assertIn("page.md: not UTF-8 (byte 0xe9 at offset 3)", self.run_main("--check", self.page))
        self.assertEqual(self.code, 2)
        deep = os.path.join(self.tmp.name, "deep.json")
        with open(deep, "w") as f:
            f.write('{"kind": "results", "results": ' + "[" * 100000 + "]" * 100000 + "}")
        self.assertRefused("page.md:1: summary of " + deep + ": JSON nested too deeply to read",
                           f"<!-- summary: {deep} -->\n<!-- /summary -->\n")

    def test_an_xz_results_file_is_read_and_a_broken_one_is_one_line(self):
        with open(os.path.join(SOURCE, RESULTS), "rb") as f:
            data = lzma.compress(f.read())
        packed = os.path.join(self.tmp.name, "results.json.xz")
        with open(packed, "wb") as f:
            f.write(data)
        self.assertIsNone(self.run_on(f"<!-- summary: {packed} -->\nold\n<!-- /summary -->\n"))
        self.assertNotIn("old", self.after)
        with open(packed, "wb") as f:
            f.write(data[:len(data) // 2])
        self.assertRefused(f"summary of {packed}: xz data cut short", f"<!-- summary: {packed} -->\n<!-- /summary -->\n")
        with open(packed, "w") as f:
            f.write("{}")
        self.assertRefused(f"summary of {packed}: not xz (", f"<!-- summary: {packed} -->\n<!-- /summary -->\n")

    def test_a_file_of_another_kind_is_named(self):
        self.assertRefused('expected a results file ("kind": "results"), found "kind": "comparison"',
                           "<!-- summary: results/h200/ci-compare.json -->\n<!-- /summary -->\n")
        self.assertRefused('expected a results file ("kind": "results"), found no "kind"',
                           "<!-- example: configs/ci.json#reduce9 -->\n<!-- /example -->\n")

    def test_an_empty_table_is_refused(self):
        for rows in (lambda rows: [], lambda rows: [r for r in rows if r["ladder"] == "baseline"]):
            path = self.results_file(rows)
            self.assertRefused("no verified hand-written step to summarize",
                               f"<!-- summary: {path} -->\nold\n<!-- /summary -->\n")
        empty = os.path.join(self.tmp.name, "empty.txt")
        open(empty, "w").close()
        self.assertRefused(f"table of {empty}: the file is empty", f"<!-- table: {empty} -->\nold\n<!-- /table -->\n")

    def test_an_example_without_its_variant_is_one_line(self):
        self.assertRefused("an example block names its row's variant: <!-- example: FILE#VARIANT -->",
                           f"<!-- example: {RESULTS} -->\n<!-- /example -->\n")

    def test_a_number_past_a_float_is_one_line(self):
        path = self.results_file(lambda rows: [dict(r, metrics=[dict(m, value=10 ** 400) for m in r["metrics"]])
                                               for r in rows])
        self.assertRefused("not a results file as docs/json-schema.md describes (OverflowError",
                           f"<!-- summary: {path} -->\nold\n<!-- /summary -->\n")

    def test_check_exits_1_when_stale_and_2_on_bad_input(self):
        self.assertIn("stale tables", self.run_on(f"<!-- table: {TABLE} -->\nold\n<!-- /table -->\n", "--check"))
        self.assertEqual(self.code, 1)
        self.assertRefused("table of results/h200/nope.txt: No such file or directory",
                           "<!-- table: results/h200/nope.txt -->\n<!-- /table -->\n", "--check")
        self.assertIn("nonexist.md: No such file or directory",
                      self.run_main("--check", os.path.join(self.tmp.name, "nonexist.md")))
        self.assertEqual(self.code, 2)
        self.assertIn("Is a directory", self.run_main("--check", self.tmp.name))
        self.assertEqual(self.code, 2)

    def test_a_path_may_hold_spaces(self):
        spaced = os.path.join(self.tmp.name, "a table.txt")
        with open(spaced, "w") as f:
            f.write("the table\n")
        self.assertIsNone(self.run_on(f"<!-- table: {spaced} -->\nold\n<!-- /table -->\n"))
        self.assertIn("```text\nthe table\n```\n", self.after)

    def test_the_docstring_names_every_closing_marker(self):
        for kind in ("table", "summary", "example"):
            self.assertIn(f"<!-- /{kind} -->", docs_tables.__doc__)


if __name__ == "__main__":
    unittest.main()
