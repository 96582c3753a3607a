import Foundation

/// The first frame of a 4:2:0 8-bit Y4M file, as heif-convert writes it.
struct Y4MPicture {
    let width: Int
    let height: Int
    let frame: Data

    init?(_ data: Data) {
        guard let headerEnd = data.firstIndex(of: 0x0A) else { return nil }
        let header = String(decoding: data[data.startIndex..<headerEnd], as: UTF8.self).split(separator: " ")
        guard let w = header.first(where: { $0.hasPrefix("W") }).flatMap({ Int($0.dropFirst()) }),
            let h = header.first(where: { $0.hasPrefix("H") }).flatMap({ Int($0.dropFirst()) }),
            let frameHeaderEnd = data[(headerEnd + 1)...].firstIndex(of: 0x0A)
        else { return nil }
        width = w
        height = h
        frame = Data(data[(frameHeaderEnd + 1)...])
        guard frame.count >= w * h + 2 * ((w + 1) / 2) * ((h + 1) / 2) else { return nil }
    }

    /// Y, Cb and Cr at a point given as fractions of the width and height.
    func sample(x: Double, y: Double) -> (y: Int, cb: Int, cr: Int) {
        let px = Int(x * Double(width)), py = Int(y * Double(height))
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        let luma = Int(frame[frame.startIndex + py * width + px])
        let chroma = (py / 2) * cw + px / 2
        let cb = Int(frame[frame.startIndex + width * height + chroma])
        let cr = Int(frame[frame.startIndex + width * height + cw * ch + chroma])
        return (luma, cb, cr)
    }
}
