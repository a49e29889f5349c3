<?xml version="1.0" encoding="UTF-8"?>
<mdata xmlns="http://ufal.mff.cuni.cz/pdt/pml/">
<head>
<schema href="mdata_35_schema.xml" />
</head>
<s id="m-doc-s2">
<m id="m-1-1">
<form>Ale</form>
<lemma>ale</lemma>
<tag>J^-------------</tag>
</m>
</s>
</mdata>
