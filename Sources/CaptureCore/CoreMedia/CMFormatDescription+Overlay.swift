import Foundation

// The Swift overlay's members of a video format description (CMFormatDescription.h's
// functions as methods and initializers).
extension CMFormatDescription {
    /// A video format description of `imageBuffer`'s pixel format and size
    /// (`CMVideoFormatDescriptionCreateForImageBuffer`).
    public convenience init(imageBuffer: CVImageBuffer) throws {
        self.init(videoFormat: imageBuffer.format.rawValue, width: imageBuffer.width, height: imageBuffer.height)
    }

    /// The clean aperture (`CMVideoFormatDescriptionGetCleanAperture`): the whole picture.
    public func cleanAperture(originIsAtTopLeft: Bool) -> CGRect {
        CMVideoFormatDescriptionGetCleanAperture(self, originIsAtTopLeft: originIsAtTopLeft)
    }

    /// Whether this format describes `imageBuffer`: same pixel format and size
    /// (`CMVideoFormatDescriptionMatchesImageBuffer`).
    public func matchesImageBuffer(_ imageBuffer: CVImageBuffer) -> Bool {
        CMVideoFormatDescriptionMatchesImageBuffer(self, imageBuffer: imageBuffer)
    }
}
