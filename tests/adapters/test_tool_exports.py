"""Issue 25's acceptance: the same annotations written as each tool writes them give the same α
to the last digit: position-aligned files, reordered files, one multi-user file (Arborator-Grew's
server), Arborator-Grew's USER/SAMPLE.conllu export and INCEpTION's annotation/DOCUMENT/USER.conllu
export (each as a folder and as a ZIP), annotator folders with free file names, and Prodigy JSONL.
Run on the shared CDT agreement data (Table 2's α) when it is there, and always on generated
trees. The writers below are written from each tool's documented format, not from our readers."""
import json
import random
import zipfile

import pytest
from typer.testing import CliRunner

from spacy_agreement.adapters.conllu import read_conll
from spacy_agreement.cli import app

runner = CliRunner()
KEYS = ("alpha_plain", "alpha_diff", "alpha_norm", "las", "uas", "la", "items", "annotations")


def generated():
    rng = random.Random(11)
    rows = []
    for k in range(30):
        n = rng.randint(2, 9)
        heads = [0] + [rng.randint(1, j) for j in range(1, n)]
        rng.shuffle(heads)  # any token may be the root
        rows.append([(f"w{k}_{j}", h if h != j + 1 else 0, rng.choice(["nsubj", "obj", "det"]) if h else "root")
                     for j, h in enumerate(heads)])
    other = [[(f, h if rng.random() < 0.8 else rng.randint(0, len(s)), r) for f, h, r in s] for s in rows]
    other = [[(f, 0 if h == j + 1 else h, r) for j, (f, h, r) in enumerate(s)] for s in other]
    return {"anna": rows, "ben": other}


def cdt(iaa):
    out = {}
    for name in ("da-lotte", "da-morten"):
        trees = read_conll(iaa / "cdt" / f"{name}.conll")
        out[name.split("-")[1]] = [list(zip(t.forms, t.heads.tolist(), t.deprels)) for t in trees]
    return out


@pytest.fixture(params=["generated", "cdt"])
def annotations(request):
    if request.param == "cdt":
        return cdt(request.getfixturevalue("iaa"))
    return generated()


def block(rows, sent_id, extra=""):
    lines = "".join(f"{j}\t{form}\t_\tX\t_\t_\t{h}\t{rel}\t_\t_\n" for j, (form, h, rel) in enumerate(rows, 1))
    return f"# sent_id = {sent_id}\n{extra}{lines}\n"


def conllu(sentences, order=None, first=0):
    order = range(len(sentences)) if order is None else order
    return "".join(block(sentences[k], f"s{first + k}") for k in order)


def alpha_json(*args):
    result = runner.invoke(app, ["alpha", *map(str, args), "--json", "--alpha", "exact"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def zipped(folder, path, top=""):
    with zipfile.ZipFile(path, "w") as archive:
        for file in sorted(folder.rglob("*")):
            if file.is_file():
                archive.write(file, top + file.relative_to(folder).as_posix())
    return path


def prodigy_lines(name, sentences):
    """dep.correct-style tasks (https://prodi.gy/docs/dependencies-relations): tokens with
    0-based ids, relations head -> child with 0-based indices, the root a relation to itself."""
    out = []
    for k, rows in enumerate(sentences):
        tokens = [{"text": f, "id": j, "start": 0, "end": 0, "ws": True} for j, (f, _, _) in enumerate(rows)]
        relations = [{"head": (h - 1) if h else j, "child": j, "label": r} for j, (_, h, r) in enumerate(rows)]
        out.append({"text": " ".join(f for f, _, _ in rows), "tokens": tokens, "relations": relations,
                    "answer": "accept", "_input_hash": 1000 + k, "_task_hash": 5000 + k,
                    "_annotator_id": f"treebank-{name}", "_session_id": f"treebank-{name}"})
    return out


def test_every_tool_layout_gives_the_same_alpha(annotations, tmp_path):
    names = sorted(annotations)
    n = len(annotations[names[0]])
    half = n // 2
    # one file per annotator, in order
    files = []
    for name in names:
        path = tmp_path / f"{name}.conllu"
        path.write_text(conllu(annotations[name]), encoding="utf-8")
        files.append(path)
    reference = alpha_json(*files)
    assert reference["items_matched_by"] == "sent_id" and reference["annotators"] == len(names)
    results = {}
    # reordered: the second annotator's file shuffled
    order = list(range(n))
    random.Random(3).shuffle(order)
    shuffled = tmp_path / "shuffled.conllu"
    shuffled.write_text(conllu(annotations[names[1]], order), encoding="utf-8")
    results["reordered"] = alpha_json(files[0], shuffled)
    # one multi-user file, trees of all users interleaved as the grew server keeps them
    blocks = [block(rows, f"s{k}", f"# user_id = {name}\n") for name in names
              for k, rows in enumerate(annotations[name])]
    random.Random(4).shuffle(blocks)
    multi = tmp_path / "multi.conllu"
    multi.write_text("".join(blocks), encoding="utf-8")
    results["multi-user"] = alpha_json(multi)
    # Arborator-Grew: USER/SAMPLE.conllu, two samples, plus its pseudo-user 'last'
    arborator = tmp_path / "arborator"
    for name in names + ["last"]:
        source = annotations.get(name, annotations[names[0]])
        (arborator / name).mkdir(parents=True)
        (arborator / name / "sample1.conllu").write_text(conllu(source[:half]), encoding="utf-8")
        (arborator / name / "sample2.conllu").write_text(conllu(source[half:], first=half), encoding="utf-8")
    results["arborator folder"] = alpha_json(arborator)
    results["arborator zip"] = alpha_json(zipped(arborator, tmp_path / "dump.project.zip"))
    results["annotator folders"] = alpha_json("--dirs", *[arborator / name for name in names])
    # INCEpTION: annotation/DOCUMENT/USER.conllu beside INITIAL_CAS, curation/ and the rest of the export
    inception = tmp_path / "inception"
    for doc, part, first in (("doc1.txt", slice(0, half), 0), ("doc2.txt", slice(half, n), half)):
        folder = inception / "annotation" / doc
        folder.mkdir(parents=True)
        for name in names:
            (folder / f"{name}.conllu").write_text(conllu(annotations[name][part], first=first), encoding="utf-8")
        (folder / "INITIAL_CAS.conllu").write_text(conllu(annotations[names[0]][part], first=first),
                                                   encoding="utf-8")
        (inception / "curation" / doc).mkdir(parents=True)
        (inception / "curation" / doc / "CURATION_USER.conllu").write_text(
            conllu(annotations[names[1]][part], first=first), encoding="utf-8")
        (inception / "source").mkdir(exist_ok=True)
        (inception / "source" / doc).write_text("text", encoding="utf-8")
    (inception / "exportedproject.json").write_text("{}", encoding="utf-8")
    results["inception folder"] = alpha_json(inception)
    results["inception zip"] = alpha_json(zipped(inception, tmp_path / "export.zip", top="project/"))
    # Prodigy db-out: one JSON line per task, both annotators' tasks in one file, plus a rejected one
    lines = [task for name in names for task in prodigy_lines(name, annotations[name])]
    random.Random(6).shuffle(lines)
    lines.append({**lines[0], "answer": "reject", "_input_hash": 99999})
    jsonl = tmp_path / "db-out.jsonl"
    jsonl.write_text("".join(json.dumps(task) + "\n" for task in lines), encoding="utf-8")
    results["prodigy"] = alpha_json(jsonl)
    for layout, values in results.items():
        assert values["annotators"] == len(names), layout
        for key in KEYS:
            assert values[key] == reference[key], (layout, key)


def test_cdt_tool_layouts_give_table2(iaa, tmp_path):
    """The CDT rows of Table 2 of Skjærholt (2014) from an INCEpTION ZIP export."""
    data = cdt(iaa)
    inception = tmp_path / "inception" / "annotation" / "cdt.txt"
    inception.mkdir(parents=True)
    for name, sentences in data.items():
        (inception / f"{name}.conllu").write_text(conllu(sentences), encoding="utf-8")
    values = alpha_json(zipped(tmp_path / "inception", tmp_path / "cdt.zip"))
    assert [round(100 * values[f"alpha_{d}"], 1) for d in ("plain", "diff", "norm")] == [95.7, 84.7, 96.2]
    assert round(100 * values["las"], 1) == 90.4
