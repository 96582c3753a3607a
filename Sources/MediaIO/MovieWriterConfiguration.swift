import CaptureCore

/// The container a `MovieWriter` makes.
package enum MovieContainer: Sendable, Equatable {
    /// MPEG-4 ('ftyp' isom, libavformat's mp4 muxer): the movie output's and `.mp4`/`.m4v`.
    case mpeg4
    /// QuickTime ('ftyp' qt): `.mov`, the only one that takes linear PCM audio.
    case quickTime
    /// Apple MPEG-4 audio ('ftyp' M4A): `.m4a`, audio only.
    case m4a

    /// libavformat's name for the muxer.
    var muxerName: String {
        switch self {
        case .mpeg4: "mp4"
        case .quickTime: "mov"
        case .m4a: "ipod"
        }
    }
}

/// The video track of a movie: H.264 (libx264) or HEVC (libx265) from pixel buffers.
package struct MovieVideoSettings: Sendable {
    /// Width and height in pixels; even, as 4:2:0 needs.
    package var width: Int
    package var height: Int
    /// Nominal frames per second: rate control, and the last frame's duration.
    package var frameRate: Double
    /// Store full-range (0-255) samples instead of video range (16-235).
    package var fullRange = false
    /// Average bits per second, or `nil` for constant quality (CRF 23) under a ceiling.
    package var bitRate: Int?
    /// Display P3 primaries (the frames are P3_D65).
    package var displayP3 = false
    /// The frames are Y'CbCr made with the BT.601 matrix (V4L2 cameras).
    package var ycbcrBT601 = false
    /// HEVC (libx265, tagged 'hvc1') instead of H.264.
    package var hevc = false
    /// With `hevc`: Main 10 from 10-bit samples.
    package var tenBit = false
    /// BT.2100 HLG tags.
    package var hlg = false
    /// The width of a pixel over its height (an asset writer's `AVVideoPixelAspectRatioKey`:
    /// horizontal and vertical spacing), written as the stream's sample aspect ratio and MP4's
    /// 'pasp' box; nil for square pixels.
    package var pixelAspectRatio: (horizontal: Int32, vertical: Int32)?
    /// Colour tags given outright (an asset writer's `AVVideoColorPropertiesKey`); when set
    /// they replace the ones `displayP3`, `ycbcrBT601` and `hlg` choose.
    package var colorTags: MovieColorTags?
    /// The track matrix players apply (nine 'tkhd' values: 16.16, last column 2.30); nil
    /// for identity. `MovieMuxer.rotationMatrix(degrees:)` makes the rotations.
    package var displayMatrix: [Int32]?
    /// The longest run of frames without a keyframe; nil for the writer's default (twice
    /// the fragment interval, or 10 s).
    package var maximumKeyframeInterval: Int?
    /// The encoder's profile name ("baseline", "main", "high" for x264; "main" for x265),
    /// nil for the default (High without B-frames; Main).
    package var profile: String?
    /// The H.264 level as libx264 names it ("3.1", "4.1"...), nil for automatic.
    package var level: String?
    /// The track's time scale ('mdhd'), nil for 90000. Below 10000 the muxer doubles it
    /// until it reaches 10000.
    package var timeScale: Int32?

    package init(width: Int, height: Int, frameRate: Double) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
    }
}

/// The audio track of a movie.
package struct MovieAudioSettings: Sendable, Equatable {
    package enum Codec: Sendable, Equatable {
        /// AAC-LC through FFmpeg's native encoder, at an average bit rate (bits per second).
        case aac(bitRate: Int)
        /// Uncompressed samples: 16, 24 or 32-bit integers or 32-bit floats.
        case linearPCM(bitDepth: Int, isFloat: Bool, isBigEndian: Bool)
    }

    package var codec: Codec
    /// Samples per second; appended audio must have this rate (no resampling).
    package var sampleRate: Int
    /// Channels; appended audio must have this count (no remixing).
    package var channels: Int
    /// AAC only: FFmpeg's quicker coder ("fast") instead of its default search ("twoloop"),
    /// for AVAudioQuality `.min` and `.low`.
    package var fastAACCoder = false
    /// AAC only: variable bit rate at this FFmpeg quality (0.1 ... 2, `-q:a`) instead of the
    /// average bit rate.
    package var variableQuality: Double?

    package init(codec: Codec, sampleRate: Int, channels: Int) {
        self.codec = codec
        self.sampleRate = sampleRate
        self.channels = channels
    }
}

/// What a `MovieWriter` records: the container, a video and/or an audio track, fragments
/// and movie-level metadata.
package struct MovieWriterConfiguration: Sendable {
    package var container = MovieContainer.mpeg4
    package var video: MovieVideoSettings?
    package var audio: MovieAudioSettings?
    /// Seconds of media per fragment; 0 or less writes an unfragmented file, playable only
    /// after `finish`.
    package var fragmentInterval: Double = 0
    /// The sequence number of the first fragment ('mfhd').
    package var firstFragmentNumber = 1
    /// Unfragmented, put the 'moov' before the 'mdat' (rewritten at `finish`).
    package var fastStart = false
    /// Movie-level tags in FFmpeg's names (title, creation_time, location, make, model,
    /// encoder, comment...).
    package var metadata: [(String, String)] = []
    /// The movie's time scale ('mvhd'), nil for the muxer's 1000.
    package var movieTimeScale: Int32?
    /// Write `metadata` as QuickTime metadata ('meta' with 'keys', 'mdta' handler), so
    /// reverse-DNS keys such as com.apple.quicktime.content.identifier or
    /// com.apple.quicktime.make keep their names (libavformat's use_metadata_tags; the mp4
    /// muxer too, which otherwise drops make and model).
    package var quickTimeMetadataKeys = false
    /// Timed-metadata tracks ('mebx'), after the video and audio tracks.
    package var metadataTracks: [MovieMetadataTrackSettings] = []

    package init(video: MovieVideoSettings? = nil, audio: MovieAudioSettings? = nil) {
        self.video = video
        self.audio = audio
    }
}

/// How appended linear PCM is laid out (native little-endian samples).
package struct PCMLayout: Sendable, Equatable {
    package enum Sample: Sendable, Equatable {
        case int16, int32, float32
        var bytes: Int { self == .int16 ? 2 : 4 }
    }

    package var sample: Sample
    package var channels: Int
    package var sampleRate: Double
    /// One plane per channel instead of interleaved frames.
    package var nonInterleaved = false

    package init(sample: Sample, channels: Int, sampleRate: Double, nonInterleaved: Bool = false) {
        self.sample = sample
        self.channels = channels
        self.sampleRate = sampleRate
        self.nonInterleaved = nonInterleaved
    }
}

/// The colour a video track says its samples are in, by Core Video's tag names
/// (`kCVImageBufferColorPrimaries_P3_D65`, `kCVImageBufferTransferFunction_ITU_R_709_2`,
/// `kCVImageBufferYCbCrMatrix_ITU_R_601_4`...), which are AVVideoSettings.h's too.
package struct MovieColorTags: Sendable, Equatable {
    package var primaries: String
    package var transferFunction: String
    package var matrix: String

    package init(primaries: String, transferFunction: String, matrix: String) {
        self.primaries = primaries
        self.transferFunction = transferFunction
        self.matrix = matrix
    }
}
