<?xml version="1.0" encoding="UTF-8"?>
<StyledLayerDescriptor version="1.0.0"
    xsi:schemaLocation="http://www.opengis.net/sld StyledLayerDescriptor.xsd"
    xmlns="http://www.opengis.net/sld" xmlns:ogc="http://www.opengis.net/ogc"
    xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <NamedLayer>
    <Name>coastlines</Name>
    <UserStyle>
      <Name>coastline</Name>
      <Title>Coastline</Title>
      <Abstract>Blue coastline</Abstract>
      <FeatureTypeStyle>
        <Rule>
          <Title>Coastline</Title>
          <LineSymbolizer>
            <Stroke>
              <CssParameter name="stroke">#5A8AB8</CssParameter>
              <CssParameter name="stroke-width">0.6</CssParameter>
            </Stroke>
          </LineSymbolizer>
        </Rule>
      </FeatureTypeStyle>
    </UserStyle>
  </NamedLayer>
</StyledLayerDescriptor>
