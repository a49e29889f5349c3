"""The report's annotator table and its summary agree (issue 38): on an INCEpTION export with
partial trees the summary gave LAS over the tokens both annotated and the table, for the same
single pair, LAS over every token of the items both annotated (a token not annotated yet a
disagreement), without saying why they differ. The table's figure is now the summary's
computation over the pair's items, labels compared alike, and the page says what it counts."""
import json
import re

from typer.testing import CliRunner

from spacy_agreement.adapters.projects import load_project
from spacy_agreement.agreement.accuracy import pairwise_accuracy
from spacy_agreement.cli import app
from spacy_agreement.corpus import Corpus
from spacy_agreement.report.format import percent
from spacy_agreement.report.html import pairwise_matrix

runner = CliRunner()
ROW = "{}\tw{}\t_\tX\t_\t_\t{}\t{}\t_\t_\n"


def sentence(rows, sent_id):
    return f"# sent_id = {sent_id}\n" + "".join(ROW.format(k, k, h, r) for k, (h, r) in enumerate(rows, 1)) + "\n"


def annotations(user, count=22):
    """One user's trees: bob differs here and there, leaves three trees partial (HEAD _) and
    writes the root ROOT and a subtype where alice does not."""
    out = []
    for s in range(count):
        rows = [(2, "dep"), (0, "root"), (2, "obj"), (3, "nmod"), (2, "punct")]
        if user == "bob":
            if s % 4 == 0:
                rows[0] = (3, "dep")
            if s % 5 == 0:
                rows[3] = (2, "obl")
            if s in (3, 7, 11):  # partial trees, as INCEpTION writes them
                rows[3] = rows[4] = ("_", "_")
            if s == 1:
                rows[1] = (0, "ROOT")
                rows[2] = (2, "obj:lvc")
        if user == "carol" and s % 3 == 0:
            rows[2] = (1, "obj")
        out.append(sentence(rows, f"s{s}"))
    return "".join(out)


def export(tmp_path, users=("alice", "bob")):
    folder = tmp_path / "export"
    (folder / "annotation" / "doc1.txt").mkdir(parents=True)
    for user in users:
        (folder / "annotation" / "doc1.txt" / f"{user}.conllu").write_text(annotations(user), encoding="utf-8")
    return folder


def annotator_rows(page):
    section = page[page.index('<section id="annotators">'):]
    section = section[:section.index("</section>")]
    rows = re.findall(r"<tr><td class='name'>([^<]*)</td><td>(\d+)</td><td>([^<]*)</td>", section)
    return section, {name.replace("&#x2F;", "/"): (int(items), value.strip()) for name, items, value in rows}


def test_one_pair_with_partial_trees_gives_the_summary_las(tmp_path):
    folder = export(tmp_path)
    for options in ([], ["--ignore-subtypes"], ["--case-sensitive-root"]):
        html = tmp_path / "report.html"
        result = runner.invoke(app, ["report", str(folder), "--html", str(html), "--json", "--quiet", *options])
        assert result.exit_code == 0, result.output
        summary = json.loads(result.stdout)
        assert summary["tokens_unannotated"] == 6 and summary["las"] < 1
        section, rows = annotator_rows(html.read_text(encoding="utf-8"))
        items, las = rows["alice / bob"]
        assert items == 22 and las == percent(summary["las"]).strip(), options
        assert "over the tokens both annotated" in section and "a partial tree a missing annotation" in section


def test_each_pair_is_the_accuracy_of_its_items(tmp_path):
    corpus = load_project(export(tmp_path, ("alice", "bob", "carol")))
    names, matrix = pairwise_matrix(corpus)
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i < j:
                pair = Corpus((a, b), [{n: it[n] for n in (a, b)} for it in corpus.items], corpus.names,
                              corpus.family)
                assert matrix[i, j] == matrix[j, i] == pairwise_accuracy(pair).las
    assert (matrix.diagonal() == 1).all()
