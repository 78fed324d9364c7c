<?xml version="1.0" encoding="UTF-8"?>
<StyledLayerDescriptor version="1.0.0"
    xsi:schemaLocation="http://www.opengis.net/sld StyledLayerDescriptor.xsd"
    xmlns="http://www.opengis.net/sld" xmlns:ogc="http://www.opengis.net/ogc"
    xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <NamedLayer>
    <Name>countries</Name>
    <UserStyle>
      <Name>countries_basemap</Name>
      <Title>Countries basemap</Title>
      <Abstract>Light countries for a basemap</Abstract>
      <FeatureTypeStyle>
        <Rule>
          <Title>Countries</Title>
          <PolygonSymbolizer>
            <Fill>
              <CssParameter name="fill">#F4F1EA</CssParameter>
            </Fill>
            <Stroke>
              <CssParameter name="stroke">#C8C8C8</CssParameter>
              <CssParameter name="stroke-width">0.3</CssParameter>
            </Stroke>
          </PolygonSymbolizer>
        </Rule>
      </FeatureTypeStyle>
    </UserStyle>
  </NamedLayer>
</StyledLayerDescriptor>
