( (S (NP (DT The) (NN dog)) (VP (VBD was) (VP (VBN seen) (PP (IN by) (NP (NNS kids))))) (. .)) )
(S (NP (PRP He)) (VP (VBD gave) (ADVP (RB up))) (. .))
