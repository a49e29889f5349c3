<tei.2>
<text>
<s>
<W in="1:subj" out="6:TELIC&3a;cons/derfor">Vi</W>
<W in="" out="-1:subj|1:pnct">er</W>
<W in="-1:pnct" out="">.</W>
</s>
<s>
<W in="1:mod" out="">Derfor</W>
<W in="-6:TELIC&3a;cons/derfor" out="-1:mod|1:subj|2:pnct|7:CONTR&3a;sbj/(men)|6:+CONJ&3a;elab/ATTR1">går</W>
<W in="-1:subj" out="">vi</W>
<W in="-2:pnct" out="">.</W>
</s>
<s>
<W in="2:mod" out="">Men</W>
<W in="1:subj|-6:+CONJ&3a;elab/ATTR1" out="">det</W>
<W in="-7:CONTR&3a;sbj/(men)" out="-2:mod|-1:subj|1:pnct">regner</W>
<W in="-1:pnct" out="">.</W>
</s>
</text>
</tei.2>
