<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="tilenav" tilewidth="16" tileheight="16" tilecount="6" columns="6">
 <image source="tilenav.png" width="96" height="16"/>
 <tile id="0">
  <properties>
   <property name="kind" value="block"/>
  </properties>
 </tile>
 <tile id="1">
  <properties>
   <property name="kind" value="oneway"/>
  </properties>
 </tile>
 <tile id="2" class="spawn">
  <properties>
   <property name="kind" value="none"/>
  </properties>
 </tile>
 <tile id="3" class="dest">
  <properties>
   <property name="kind" value="none"/>
  </properties>
 </tile>
 <tile id="4" class="item">
  <properties>
   <property name="kind" value="none"/>
  </properties>
 </tile>
 <tile id="5" class="start">
  <properties>
   <property name="kind" value="none"/>
  </properties>
 </tile>
</tileset>
