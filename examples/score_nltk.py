"""Scoring NLTK-parsed trees against gold trees in one call: phrase trees (leaf-ancestor,
GEIG, α, Jaccard) and dependency graphs (LAS, UAS, NED, TED, ..., α).

Run: python examples/score_nltk.py
"""
import nltk
from nltk.parse import DependencyGraph

import spacy_agreement as sa


def main():
    gold = [nltk.Tree.fromstring("(S (NP (DT the) (NN dog)) (VP (VBZ barks) (PP (IN at) (NP (NNS cats)))))"),
            nltk.Tree.fromstring("(S (NP (PRP it)) (VP (VBD ran) (ADVP (RB away))))")]
    # a toy "parser": a context-free grammar parsed with NLTK's chart parser
    grammar = nltk.CFG.fromstring("""
        S -> NP VP | NP VP PP
        NP -> DT NN | NNS | PRP | NP PP
        VP -> VBZ | VBD ADVP | VBZ PP
        PP -> IN NP
        ADVP -> RB
        DT -> 'the'
        NN -> 'dog'
        NNS -> 'cats'
        PRP -> 'it'
        VBZ -> 'barks'
        VBD -> 'ran'
        IN -> 'at'
        RB -> 'away'
    """)
    parser = nltk.ChartParser(grammar)
    # the grammar is ambiguous; take a parse that differs from the gold tree where there is one
    parsed = [next((p for p in parser.parse(tree.leaves()) if p != tree), tree) for tree in gold]
    for tree in parsed:
        print(" ".join(str(tree).split()))
    scores = sa.score_nltk_trees(gold, parsed, cost="first-char")  # alpha_method says how α was computed
    print("phrase trees:", {k: round(v, 3) if isinstance(v, float) else v for k, v in scores.items()})

    conll = "the\tDET\t2\tdet\ndog\tNOUN\t3\tnsubj\nbarks\tVERB\t0\troot\n"
    gold_graph = DependencyGraph(conll, top_relation_label="root")
    parsed_graph = DependencyGraph(conll.replace("3\tnsubj", "3\tobj"), top_relation_label="root")
    scores = sa.score_nltk_trees([gold_graph], [parsed_graph])
    print("dependency graphs:", {k: round(v, 3) for k, v in scores.items() if isinstance(v, float)})


if __name__ == "__main__":
    main()
