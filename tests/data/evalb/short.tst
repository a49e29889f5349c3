(S (NP (NN a)) (VP (VBZ b)))
(S (VP (NN c) (VBZ d)))
(S (NP (NN e)) (VP (VBZ f)))
