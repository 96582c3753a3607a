import CaptureCore

extension SimulatedCameraCatalog {
    /// Focus and torch, as on an iPhone: the back wide (nearest 0.15 m), telephoto (0.45 m)
    /// and front (0.25 m) cameras focus by contrast detection; the ultra wide is fixed-focus at
    /// its hyperfocal distance, its formats report no autofocus system, and its
    /// `minimumFocusDistance` is the near limit of its depth of field (half the hyperfocal
    /// distance). The back cameras have the torch (`Torch`). See `FocusLens` for the optics.
    static func describeFocus(of model: inout SimulatedCameraModel, minimumFocusDistance: Double?) {
        if let minimumFocusDistance {
            model.descriptor.focus = FocusCapabilities(hasAutoFocus: true, minimumFocusDistance: minimumFocusDistance)
            return
        }
        let format = model.descriptor.formats[model.descriptor.defaultFormatIndex]
        let lens = FocusLens(optics: model.optics(for: format), minimumFocusDistance: nil, pixelPitch: model.sensor.pixelPitch)
        model.descriptor.focus = FocusCapabilities(hasAutoFocus: false, minimumFocusDistance: 0.5 / lens.nearDiopters)
        for index in model.descriptor.formats.indices { model.descriptor.formats[index].autoFocusSystem = 0 }
    }
}
