<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="fixture" tilewidth="16" tileheight="16" tilecount="8" columns="8">
 <image source="../../../assets/tilenav.png" width="96" height="16"/>
 <tile id="0"><properties><property name="kind" value="block"/></properties></tile>
 <tile id="1"><properties><property name="kind" value="oneway"/><property name="friction" type="float" value="0.5"/></properties></tile>
 <tile id="3"><properties><property name="kind">none</property></properties></tile>
 <tile id="4" class="spawn"><properties><property name="kind" value="none"/></properties></tile>
</tileset>
