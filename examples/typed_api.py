"""Every public function called as a typed Python program calls it (checked by ``mypy --strict``
in tests/test_typed_api.py): each result's figures are typed properties, so a misspelt attribute
or option is a type error before the program runs. Run it: ``python examples/typed_api.py``."""
from __future__ import annotations

from pathlib import Path

import spacy_agreement as sa

DEMO = Path(sa.__file__).parent / "data" / "demo"
ANNA = DEMO / "dependency" / "anna" / "story-anna.conllu"
BEN = DEMO / "dependency" / "ben" / "story-ben.conllu"
TREES_A = DEMO / "phrase" / "annotator-a.tree"
TREES_B = DEMO / "phrase" / "annotator-b.tree"
DISCOURSE = Path(__file__).parent / "discourse_example.json"


def main() -> None:
    agreement: sa.AlphaResult = sa.alpha(ANNA, BEN, method="exact")
    print(f"alpha plain {agreement.alpha_plain:.4f}, norm {agreement.alpha_norm:.4f}, LAS {agreement.las:.4f}")
    layers: sa.LayersResult = sa.layers(ANNA, BEN, layer=["upos", "head", "deprel"])
    print(f"layers: first layer's alpha {layers.score:.4f}")
    run: sa.EvaluateRun = sa.evaluate(ANNA, BEN, no_punct=True)
    print(f"LAS {run.las:.4f}, UAS {run.uas:.4f}, CLAS {run.clas:.4f}; {run.signature}")
    compared: sa.CompareRun = sa.compare(ANNA, BEN, ANNA, metric="las", shuffles=200, resamples=50)
    print(f"difference in LAS {compared.score:+.4f} over {len(compared.pairs)} pair(s)")
    brackets: sa.EvalbRun = sa.evalb(TREES_A, TREES_B)
    print(f"EVALB F {brackets.score:.4f}, aborted {brackets.aborted}")
    lineages: sa.LeafAncestorRun = sa.leaf_ancestor(TREES_A, TREES_B, costs="exact")
    print(f"leaf-ancestor {lineages.leaf_ancestor:.4f} (words {lineages.leaf_ancestor_words:.4f})")
    arrows: sa.DiscourseRun = sa.discourse(DISCOURSE)
    print(f"discourse strict F1 {arrows.score:.4f}")
    page: sa.JudgingPage = sa.judge(ANNA, BEN, all=True)
    print(f"judging page: {len(page.html)} characters")
    for error in (sa.AgreementError, sa.EmptyInputError, sa.BadOptionError):
        assert issubclass(error, ValueError)


if __name__ == "__main__":
    main()
