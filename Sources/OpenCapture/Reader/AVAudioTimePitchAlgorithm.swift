/// How audio is stretched when played or read at another rate (AVAudioProcessingSettings.h).
public struct AVAudioTimePitchAlgorithm: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let lowQualityZeroLatency = AVAudioTimePitchAlgorithm(rawValue: "LowQualityZeroLatency")
    public static let timeDomain = AVAudioTimePitchAlgorithm(rawValue: "TimeDomain")
    public static let spectral = AVAudioTimePitchAlgorithm(rawValue: "Spectral")
    public static let varispeed = AVAudioTimePitchAlgorithm(rawValue: "Varispeed")
}
