<?xml version="1.0" encoding="UTF-8"?>
<StyledLayerDescriptor version="1.0.0"
    xsi:schemaLocation="http://www.opengis.net/sld StyledLayerDescriptor.xsd"
    xmlns="http://www.opengis.net/sld" xmlns:ogc="http://www.opengis.net/ogc"
    xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <NamedLayer>
    <Name>Simple Streams</Name>
    <UserStyle>
      <Name>simple_streams</Name>
      <Title>Blue streams</Title>
      <Abstract>Streams drawn as blue lines</Abstract>
      <FeatureTypeStyle>
        <Rule>
          <Title>Streams</Title>
          <LineSymbolizer>
            <Stroke>
              <CssParameter name="stroke">#003EBA</CssParameter>
              <CssParameter name="stroke-width">1</CssParameter>
            </Stroke>
          </LineSymbolizer>
        </Rule>
      </FeatureTypeStyle>
    </UserStyle>
  </NamedLayer>
</StyledLayerDescriptor>
