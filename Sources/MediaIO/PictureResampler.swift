import CaptureCore

/// Shrinks a picture to the size it is needed at while its rows stream in, so a large
/// source never sits in memory whole: each output pixel is the mean, in linear light, of
/// the source pixels that fall in it (a box filter whose bins are ⌊ratio⌋ or ⌈ratio⌉
/// pixels wide), written as 8-bit sRGB.
///
/// Holds one output row of sums besides the output. Rows must come in order, top first.
struct PictureResampler {
    let sourceWidth: Int
    let sourceHeight: Int
    let width: Int
    let height: Int
    /// `width`×`height` RGB, sRGB-encoded, filled as rows complete.
    let output: PageBuffer
    /// The output column of each source column.
    private let columnOf: [Int32]
    /// How many source columns each output column averages.
    private let columnWeights: [Float]
    private var sums: [Float]
    /// The output row being summed and how many source rows it has so far.
    private var row = 0
    private var rowsSummed = 0
    private var sourceRowsSeen = 0

    /// A `sourceWidth`×`sourceHeight` picture to `width`×`height` (no larger than the source).
    init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) {
        precondition(width >= 1 && height >= 1 && width <= sourceWidth && height <= sourceHeight, "resampling only shrinks")
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.width = width
        self.height = height
        output = PageBuffer(count: 3 * width * height)
        let columns = (0..<sourceWidth).map { Int32($0 * width / sourceWidth) }
        var weights = [Float](repeating: 0, count: width)
        for column in columns { weights[Int(column)] += 1 }
        columnOf = columns
        columnWeights = weights
        sums = [Float](repeating: 0, count: 3 * width)
    }

    /// Adds the next source row: `3 × sourceWidth` linear RGB values.
    mutating func add(_ linear: UnsafePointer<Float>) {
        precondition(sourceRowsSeen < sourceHeight, "more rows than the picture has")
        let target = sourceRowsSeen * height / sourceHeight
        if target != row { flush() }
        row = target
        sums.withUnsafeMutableBufferPointer { sums in
            columnOf.withUnsafeBufferPointer { columnOf in
                for x in 0..<sourceWidth {
                    let out = 3 * Int(columnOf[x])
                    sums[out] += linear[3 * x]
                    sums[out + 1] += linear[3 * x + 1]
                    sums[out + 2] += linear[3 * x + 2]
                }
            }
        }
        rowsSummed += 1
        sourceRowsSeen += 1
        if sourceRowsSeen == sourceHeight { flush() }
    }

    /// Whether every source row has been added.
    var isComplete: Bool { sourceRowsSeen == sourceHeight }

    /// Writes the summed output row as codes and clears the sums.
    private mutating func flush() {
        guard rowsSummed > 0 else { return }
        let out = output.bytes + 3 * width * row
        let rows = Float(rowsSummed)
        sums.withUnsafeMutableBufferPointer { sums in
            for x in 0..<width {
                let scale = 1 / (columnWeights[x] * rows)
                for channel in 0..<3 {
                    out[3 * x + channel] = SRGBCodes.code(sums[3 * x + channel] * scale)
                    sums[3 * x + channel] = 0
                }
            }
        }
        rowsSummed = 0
    }
}
