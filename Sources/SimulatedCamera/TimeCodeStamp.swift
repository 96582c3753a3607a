import CBarcode
import CaptureCore

/// A display in the scene that shows each frame's presentation time as a QR code, for
/// measuring glass-to-glass latency: a receiver decodes the code in the frame it shows and
/// subtracts the time from now on the same host clock (CLOCK_MONOTONIC).
///
/// The code holds `T` followed by the time in whole microseconds ("T1234567890123"), in
/// QR's alphanumeric mode at error-correction level M: version 1 (21×21 modules) up to 19
/// digits. It is drawn after the ISP as a perfect display would show it, flat and facing
/// the camera: black (code 0 or 16) modules on white (255 or 235), neutral chroma, whole
/// pixels a module, from an even pixel so its 4:2:0 chroma is its own. Focus, exposure,
/// noise and motion do not act on it, so every frame's time reads after heavy compression
/// (at 4 pixels a module it survives H.264 at 300 kbit/s at 352x288).
package struct TimeCodeStamp: Sendable, Equatable {
    /// The top-left corner of the code's quiet zone, in pixels.
    package var x: Int
    package var y: Int
    /// Pixels per module (at least 2).
    package var moduleSize: Int

    /// Modules of quiet zone around the code (QR asks for 4; readers manage with 2).
    static let quietModules = 2
    /// Modules across a version-1 code.
    static let codeModules = 21
    /// Modules across, quiet zone included.
    package static let totalModules = codeModules + 2 * quietModules

    package init(x: Int, y: Int, moduleSize: Int) {
        self.x = x
        self.y = y
        self.moduleSize = moduleSize
    }

    /// The stamp centred at (`centerX`, `centerY`) (fractions of the frame) and `side`
    /// pixels across, quiet zone included, in a `width`x`height` frame; nil if it would be
    /// under 2 pixels a module or would not fit inside the frame.
    package init?(centerX: Double, centerY: Double, side: Double, width: Int, height: Int) {
        let module = Int(side / Double(Self.totalModules))
        guard module >= 2 else { return nil }
        let pixels = module * Self.totalModules
        let left = Int((centerX * Double(width) - Double(pixels) / 2).rounded()) & ~1
        let top = Int((centerY * Double(height) - Double(pixels) / 2).rounded()) & ~1
        guard left >= 0, top >= 0, left + pixels <= width, top + pixels <= height else { return nil }
        self.init(x: left, y: top, moduleSize: module)
    }

    /// The code's text for a presentation time in nanoseconds.
    package static func text(nanoseconds: Int64) -> String { "T\(nanoseconds / 1000)" }

    /// The time in nanoseconds a code's text stands for, or nil for other text.
    package static func nanoseconds(fromText text: String) -> Int64? {
        guard text.first == "T", text.count > 1, let micro = Int64(text.dropFirst()), micro >= 0 else { return nil }
        return micro.multipliedReportingOverflow(by: 1000).overflow ? nil : micro * 1000
    }

    /// Draws the code of `nanoseconds` into the frame; false if the text could not be
    /// encoded (which a time never fails) or the stamp does not fit the buffer.
    @discardableResult
    package func draw(nanoseconds: Int64, into buffer: CVBuffer) -> Bool {
        let side = moduleSize * Self.totalModules
        guard x >= 0, y >= 0, x + side <= buffer.width, y + side <= buffer.height else { return false }
        var width: Int32 = 0, height: Int32 = 0
        let text = Self.text(nanoseconds: nanoseconds)
        var modules = [UInt8](repeating: 0, count: Self.codeModules * Self.codeModules * 4)
        let count = modules.withUnsafeMutableBufferPointer {
            oc_barcode_encode(Int32(OC_BARCODE_QR), text, 2, $0.baseAddress, $0.count, &width, &height)
        }
        guard count > 0, width == height else { return false }
        let across = Int(width)
        let total = across + 2 * Self.quietModules
        // A longer text than version 1 holds: shrink the modules so the code keeps its place.
        let module = total <= Self.totalModules ? moduleSize : max(1, side / total)
        let dark: (Int) -> Bool = { index in
            let row = index / total - Self.quietModules, column = index % total - Self.quietModules
            return row >= 0 && column >= 0 && row < across && column < across && modules[row * across + column] != 0
        }
        paint(buffer, modulesAcross: total, moduleSize: module, dark: dark)
        return true
    }

    /// Fills `modulesAcross`² squares of `moduleSize` pixels from (x, y): ink where `dark`.
    private func paint(_ buffer: CVBuffer, modulesAcross total: Int, moduleSize module: Int, dark: (Int) -> Bool) {
        let full = buffer.format.isFullRange
        let side = total * module
        for row in 0..<side {
            let moduleRow = row / module
            switch buffer.format {
            case .bgra:
                let line = buffer.planeAddress(0).assumingMemoryBound(to: UInt8.self) + (y + row) * buffer.bytesPerRow(0) + 4 * x
                for column in 0..<side {
                    let value: UInt8 = dark(moduleRow * total + column / module) ? 0 : 255
                    line[4 * column] = value
                    line[4 * column + 1] = value
                    line[4 * column + 2] = value
                    line[4 * column + 3] = 255
                }
            case .yuv420TenBitBiPlanarVideoRange, .yuv420TenBitBiPlanarFullRange:
                let line = (buffer.planeAddress(0) + (y + row) * buffer.bytesPerRow(0)).assumingMemoryBound(to: UInt16.self) + x
                let (ink, paper): (UInt16, UInt16) = full ? (0, 1023) : (64, 940)
                for column in 0..<side { line[column] = (dark(moduleRow * total + column / module) ? ink : paper) << 6 }
            case .yuv420BiPlanarVideoRange, .yuv420BiPlanarFullRange, .yuv420PlanarVideoRange, .yuv420PlanarFullRange:
                let line = buffer.planeAddress(0).assumingMemoryBound(to: UInt8.self) + (y + row) * buffer.bytesPerRow(0) + x
                let (ink, paper): (UInt8, UInt8) = full ? (0, 255) : (16, 235)
                for column in 0..<side { line[column] = dark(moduleRow * total + column / module) ? ink : paper }
            case .bayerRGGB14, .bayerGRBG14, .bayerBGGR14, .bayerGBRG14, .disparityFloat16, .disparityFloat32, .depthFloat16,
                .depthFloat32, .oneComponent8:
                return  // no time code on a raw mosaic or an auxiliary image
            }
        }
        neutralChroma(buffer, side: side)
    }

    /// Grey chroma under the code, so colour noise around it cannot tint it.
    private func neutralChroma(_ buffer: CVBuffer, side: Int) {
        let rows = side / 2, columns = side / 2, cx = x / 2, cy = y / 2
        switch buffer.format {
        case .bgra, .bayerRGGB14, .bayerGRBG14, .bayerBGGR14, .bayerGBRG14, .disparityFloat16, .disparityFloat32, .depthFloat16,
            .depthFloat32, .oneComponent8:
            return
        case .yuv420TenBitBiPlanarVideoRange, .yuv420TenBitBiPlanarFullRange:
            for row in 0..<rows {
                let line = (buffer.planeAddress(1) + (cy + row) * buffer.bytesPerRow(1)).assumingMemoryBound(to: UInt16.self) + 2 * cx
                for index in 0..<(2 * columns) { line[index] = 512 << 6 }
            }
        case .yuv420BiPlanarVideoRange, .yuv420BiPlanarFullRange:
            for row in 0..<rows {
                let line = buffer.planeAddress(1).assumingMemoryBound(to: UInt8.self) + (cy + row) * buffer.bytesPerRow(1) + 2 * cx
                for index in 0..<(2 * columns) { line[index] = 128 }
            }
        case .yuv420PlanarVideoRange, .yuv420PlanarFullRange:
            for plane in 1...2 {
                for row in 0..<rows {
                    let line = buffer.planeAddress(plane).assumingMemoryBound(to: UInt8.self) + (cy + row) * buffer.bytesPerRow(plane) + cx
                    for index in 0..<columns { line[index] = 128 }
                }
            }
        }
    }
}
