(S (NP (NN a)) (VP (VBZ b)))
(S (NP the dog) (VP (VBZ barks)))
(S (NP (NN c)) (VP (VBZ d)))
