<?xml version="1.0" encoding="UTF-8"?>
<tdata xmlns="http://ufal.mff.cuni.cz/pdt/pml/">
<head>
<schema href="tdata_35_schema.xml" />
<references>
<reffile id="a" name="adata" href="doc.a" />
</references>
</head>
<trees>
<LM id="t-doc-s1">
<atree.rf>a#a-doc-s1</atree.rf>
<deepord>0</deepord>
<children id="t-0-1">
<nodetype>complex</nodetype>
<t_lemma>vědět</t_lemma>
<functor>PRED</functor>
<deepord>2</deepord>
<children id="t-0-2">
<nodetype>complex</nodetype>
<t_lemma>já</t_lemma>
<functor>ACT</functor>
<deepord>1</deepord>
</children>
</children>
</LM>
<LM id="t-doc-s2">
<atree.rf>a#a-doc-s2</atree.rf>
<deepord>0</deepord>
<children>
<LM id="t-1-1">
<nodetype>complex</nodetype>
<t_lemma>být</t_lemma>
<functor>PRED</functor>
<deepord>3</deepord>
<discourse>
<LM>
<target_node.rf>t-0-1</target_node.rf>
<type>discourse</type>
<start_range>0</start_range>
<target_range>0</target_range>
<discourse_type>opp</discourse_type>
<src>ann1</src>
<a-connectors.rf>a#a-1-1</a-connectors.rf>
<t-connectors.rf>
<LM>t-1-2</LM>
</t-connectors.rf>
</LM>
<LM>
<target_node.rf>t-0-2</target_node.rf>
<type>list</type>
<start_range>0</start_range>
</LM>
</discourse>
<children>
<LM id="t-1-2">
<nodetype>atom</nodetype>
<t_lemma>ale</t_lemma>
<functor>PREC</functor>
<deepord>1</deepord>
</LM>
<LM id="t-1-3">
<nodetype>complex</nodetype>
<t_lemma>Rusko</t_lemma>
<functor>ACT</functor>
<deepord>2</deepord>
<discourse>
<type>discourse</type>
<start_range>0</start_range>
<discourse_type>reason</discourse_type>
</discourse>
</LM>
</children>
</LM>
</children>
</LM>
</trees>
</tdata>
