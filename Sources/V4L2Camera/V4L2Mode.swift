import CV4L2

/// One size of one pixel format a device offers, with its frame intervals.
package struct V4L2Mode: Sendable, Equatable {
    package var code: V4L2PixelCode
    package var width: Int
    package var height: Int
    package var intervals: Intervals

    /// Frame intervals as the driver lists them (seconds per frame, as fractions).
    package enum Intervals: Sendable, Equatable {
        case discrete([Fraction])
        /// A continuous or stepwise range, shortest to longest.
        case range(min: Fraction, max: Fraction, step: Fraction)
    }

    /// A `v4l2_fract`: numerator / denominator seconds.
    package struct Fraction: Sendable, Equatable {
        package var numerator: UInt32
        package var denominator: UInt32
        package init(_ numerator: UInt32, _ denominator: UInt32) {
            self.numerator = numerator
            self.denominator = denominator
        }
        package var seconds: Double { Double(numerator) / Double(denominator) }
        /// Frames per second (the reciprocal).
        package var rate: Double { Double(denominator) / Double(numerator) }
    }

    package init(code: V4L2PixelCode, width: Int, height: Int, intervals: Intervals) {
        self.code = code
        self.width = width
        self.height = height
        self.intervals = intervals
    }

    /// Frame-rate ranges for `AVCaptureDevice.Format`: one fixed range per discrete interval,
    /// fastest first, as macOS lists a webcam's rates; one range for a stepwise set.
    package var frameRateRanges: [ClosedRange<Double>] {
        switch intervals {
        case .discrete(let list):
            return list.map(\.rate).sorted(by: >).map { $0...$0 }
        case .range(let shortest, let longest, _):
            return [longest.rate...shortest.rate]
        }
    }
}

/// Lists what a node can stream: ENUM_FMT, then ENUM_FRAMESIZES and ENUM_FRAMEINTERVALS.
package enum V4L2FormatEnumerator {
    /// Every (format, size) pair with its intervals, in the driver's order. Stepwise sizes
    /// are sampled at the common video sizes within the range.
    package static func modes(of node: V4L2Node) -> [V4L2Mode] {
        var modes: [V4L2Mode] = []
        for code in pixelCodes(of: node) {
            for (width, height) in sizes(of: node, code: code) {
                guard let intervals = intervals(of: node, code: code, width: width, height: height) else { continue }
                modes.append(V4L2Mode(code: code, width: width, height: height, intervals: intervals))
            }
        }
        return modes
    }

    /// The FourCCs the driver lists, in its order (all of them, known or not).
    package static func allFourCCs(of node: V4L2Node) -> [UInt32] {
        var codes: [UInt32] = []
        for index in 0..<256 {
            var desc = v4l2_fmtdesc()
            desc.index = UInt32(index)
            desc.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            do { try node.control(OC_VIDIOC_ENUM_FMT, "VIDIOC_ENUM_FMT", &desc) } catch { break }
            codes.append(desc.pixelformat)
        }
        return codes
    }

    static func pixelCodes(of node: V4L2Node) -> [V4L2PixelCode] {
        allFourCCs(of: node).compactMap(V4L2PixelCode.init(rawValue:))
    }

    /// Sizes a stepwise range offers, when the driver lists no discrete sizes.
    static let commonSizes = [
        (160, 120), (320, 180), (320, 240), (352, 288), (640, 360), (640, 480), (800, 600), (1024, 576),
        (1280, 720), (1280, 960), (1920, 1080), (2560, 1440), (3840, 2160),
    ]

    static func sizes(of node: V4L2Node, code: V4L2PixelCode) -> [(Int, Int)] {
        var sizes: [(Int, Int)] = []
        for index in 0..<512 {
            var size = v4l2_frmsizeenum()
            size.index = UInt32(index)
            size.pixel_format = code.rawValue
            do { try node.control(OC_VIDIOC_ENUM_FRAMESIZES, "VIDIOC_ENUM_FRAMESIZES", &size) } catch { break }
            if size.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
                sizes.append((Int(size.discrete.width), Int(size.discrete.height)))
            } else {
                let range = size.stepwise
                let stepW = Int(max(range.step_width, 1))
                let stepH = Int(max(range.step_height, 1))
                for (width, height) in commonSizes
                where width >= range.min_width && width <= range.max_width && height >= range.min_height
                    && height <= range.max_height && (width - Int(range.min_width)) % stepW == 0
                    && (height - Int(range.min_height)) % stepH == 0
                {
                    sizes.append((width, height))
                }
                break
            }
        }
        return sizes
    }

    static func intervals(of node: V4L2Node, code: V4L2PixelCode, width: Int, height: Int) -> V4L2Mode.Intervals? {
        var list: [V4L2Mode.Fraction] = []
        for index in 0..<256 {
            var interval = v4l2_frmivalenum()
            interval.index = UInt32(index)
            interval.pixel_format = code.rawValue
            interval.width = UInt32(width)
            interval.height = UInt32(height)
            do { try node.control(OC_VIDIOC_ENUM_FRAMEINTERVALS, "VIDIOC_ENUM_FRAMEINTERVALS", &interval) } catch { break }
            if interval.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue {
                let value = interval.discrete
                if value.numerator > 0 && value.denominator > 0 { list.append(.init(value.numerator, value.denominator)) }
            } else {
                let range = interval.stepwise
                return .range(
                    min: .init(range.min.numerator, range.min.denominator), max: .init(range.max.numerator, range.max.denominator),
                    step: .init(range.step.numerator, max(range.step.denominator, 1)))
            }
        }
        guard list.isEmpty else { return .discrete(list) }
        // A driver without ENUM_FRAMEINTERVALS: the one interval it reports (G_PARM), or, if
        // it reports none either, 30 fps, which its stream will then be asked for and read back.
        var parm = v4l2_streamparm()
        parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        if (try? node.control(OC_VIDIOC_G_PARM, "VIDIOC_G_PARM", &parm)) != nil {
            let current = parm.parm.capture.timeperframe
            if current.numerator > 0 && current.denominator > 0 { return .discrete([.init(current.numerator, current.denominator)]) }
        }
        return .discrete([.init(1, 30)])
    }
}
