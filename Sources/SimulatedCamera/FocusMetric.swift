import CRenderKernels
import CaptureCore

/// The sharpness a contrast-detection autofocus maximises: the energy of the luma gradient
/// in a window around the focus point, divided by the window's mean luma squared so that
/// exposure changes during the search do not move it.
///
/// Gradients are central differences (two pixels apart) in both directions. Sensor noise adds
/// a constant to the energy (it is independent of the lens), so the peak stays where the
/// image is sharpest. The sums are C (`oc_focus_energy`): autofocus measures every frame
/// of a search, and a debug build must keep up too.
enum FocusMetric {
    /// Half the window's width and height, as a share of the frame's.
    static let halfWindow = 0.1

    /// Sharpness of `buffer` around `point` ((0,0) top-left ... (1,1) bottom-right).
    static func sharpness(of buffer: CVBuffer, around point: PointOfInterest) -> Double {
        let width = buffer.width, height = buffer.height
        let cx = Int(point.x * Double(width)), cy = Int(point.y * Double(height))
        let hx = max(2, Int(halfWindow * Double(width))), hy = max(2, Int(halfWindow * Double(height)))
        let x0 = max(1, cx - hx), x1 = min(width - 1, cx + hx)
        let y0 = max(1, cy - hy), y1 = min(height - 1, cy + hy)
        guard x0 < x1, y0 < y1 else { return 0 }
        let base = UnsafeRawPointer(buffer.planeAddress(0)).assumingMemoryBound(to: UInt8.self)
        let stride = buffer.bytesPerRow(0)
        // Luma of BGRA is approximated by green, which carries most of it.
        // 10-bit luma words: the high byte, the value's top 8 bits.
        let step = buffer.format == .bgra ? 4 : buffer.format.isTenBit ? 2 : 1
        let offset = buffer.format == .bgra || buffer.format.isTenBit ? 1 : 0
        // (energy, sum), from a tuple so that a frame's measurement allocates nothing.
        var result = (0.0, 0.0)
        withUnsafeMutableBytes(of: &result) {
            oc_focus_energy(base + offset, stride, step, x0, x1, y0, y1, $0.baseAddress!.assumingMemoryBound(to: Double.self))
        }
        let (energy, sum) = result
        let count = Double((x1 - x0) * (y1 - y0))
        let mean = sum / count
        return mean > 0 ? energy / count / (mean * mean) : 0
    }
}
