<?xml version="1.0" encoding="UTF-8"?>
<tileset name="x" tilewidth="16" tileheight="16" tilecount="1" columns="1">
 <tile id="0"><properties><property name="kind" value="lava"/></properties></tile>
</tileset>
