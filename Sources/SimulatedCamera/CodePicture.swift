import CBarcode

/// Draws a code as a picture for `ScenePicture`: zxing-cpp's encoder gives the modules,
/// one picture sample each, black ink on white paper inside the symbology's quiet zone.
package enum CodePicture {
    /// Paper and ink reflectance (matte white paper, black toner).
    static let paper: Float = 0.85
    static let ink: Float = 0.04

    /// The picture of `text` as `symbology` (one `OC_BARCODE_` bit) and where the code lies
    /// in it (fractions, inside the quiet zone); nil if the text cannot be encoded so.
    package static func make(text: String, symbology: Int32) -> (image: SceneImage, content: (minU: Double, minV: Double, maxU: Double, maxV: Double))? {
        var width: Int32 = 0, height: Int32 = 0
        let count = oc_barcode_encode(symbology, text, -1, nil, 0, &width, &height)
        guard count > 0 else { return nil }
        var modules = [UInt8](repeating: 0, count: count)
        let written = modules.withUnsafeMutableBufferPointer { oc_barcode_encode(symbology, text, -1, $0.baseAddress, count, &width, &height) }
        guard written == count else { return nil }
        let w = Int(width), linear = height == 1
        // 1-D codes: bars 40 % as tall as they are wide (at least 12 modules), 10 modules of
        // quiet zone at the sides; 2-D codes: 4 modules around (QR's rule; enough for all).
        let h = linear ? max(12, w * 2 / 5) : Int(height)
        let quietX = linear ? 10 : 4, quietY = linear ? 4 : 4
        let totalW = w + 2 * quietX, totalH = h + 2 * quietY
        var samples = [SIMD3<Float>](repeating: SIMD3(repeating: paper), count: totalW * totalH)
        for y in 0..<h {
            for x in 0..<w where modules[(linear ? 0 : y) * w + x] != 0 {
                samples[(y + quietY) * totalW + x + quietX] = SIMD3(repeating: ink)
            }
        }
        let image = SceneImage(width: totalW, height: totalH, linear: samples, name: "code \(text)")
        let content = (
            minU: Double(quietX) / Double(totalW), minV: Double(quietY) / Double(totalH),
            maxU: Double(quietX + w) / Double(totalW), maxV: Double(quietY + h) / Double(totalH)
        )
        return (image, content)
    }
}
