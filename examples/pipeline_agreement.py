"""Agreement inside a spaCy pipeline: snapshot one analysis, change it (as a second parser or
an annotator would), and let ``syntax_agreement`` score the difference per sentence.

Run: python examples/pipeline_agreement.py
"""
import spacy
from spacy.tokens import Doc

from spacy_agreement.integrations.spacy_components import alpha_over_docs


def main():
    nlp = spacy.blank("en")
    nlp.add_pipe("analysis_snapshot", config={"key": "annotator1"})
    nlp.add_pipe("syntax_agreement", config={"compare_with": ["annotator1"]})
    words = ["She", "read", "the", "book", ".", "It", "was", "long", "."]
    heads = [1, 1, 3, 1, 1, 6, 6, 6, 6]
    deps = ["nsubj", "ROOT", "det", "obj", "punct", "nsubj", "ROOT", "acomp", "punct"]
    docs = []
    for second_opinion in ({}, {3: ("obl", 1)}, {7: ("attr", 6), 2: ("det", 3)}):
        doc = Doc(nlp.vocab, words=words, heads=heads, deps=deps)
        doc = nlp.get_pipe("analysis_snapshot")(doc)      # annotator 1's analysis is stored
        for i, (dep, head) in second_opinion.items():     # annotator 2 changes some arcs
            doc[i].dep_ = dep
            doc[i].head = doc[head]
        doc = nlp.get_pipe("syntax_agreement")(doc)
        docs.append(doc)
        print("doc:", {k: {m: round(v, 3) for m, v in s.items()} for k, s in doc._.agreement.items()})
        for sent in doc.sents:
            print("   ", sent.text, "->", sent._.agreement["annotator1"])
    result = alpha_over_docs(docs, ["annotator1"])
    print(f"alpha between the stored and the current analyses over {result.items} sentences: "
          f"plain {result.alpha_plain:.3f}, diff {result.alpha_diff:.3f}, norm {result.alpha_norm:.3f}")


if __name__ == "__main__":
    main()
