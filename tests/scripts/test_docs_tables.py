"""scripts/docs_tables.py on documents written here: a block is filled from its file, and a marker
without its pair, a missing file or a missing variant is one message, with nothing written."""
import importlib.util
import os
import tempfile
import unittest

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
spec = importlib.util.spec_from_file_location("docs_tables", os.path.join(SOURCE, "scripts", "docs_tables.py"))
docs_tables = importlib.util.module_from_spec(spec)
spec.loader.exec_module(docs_tables)

TABLE = "results/h200/ci-timed-wall.txt"


class DocsTablesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.page = os.path.join(self.tmp.name, "page.md")

    def tearDown(self):
        self.tmp.cleanup()

    def run_on(self, text):
        with open(self.page, "w") as f:
            f.write(text)
        try:
            docs_tables.main([self.page])
            return None
        except SystemExit as e:
            return str(e.code)
        finally:
            with open(self.page) as f:
                self.after = f.read()

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


if __name__ == "__main__":
    unittest.main()
