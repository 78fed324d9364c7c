"""Cascaded WMS and WMTS stores and layers (WMSStoreController, WMSLayerController,
WMTSStoreController, WMTSLayerController)."""
