import CFFmpeg
import CaptureCore
import Foundation

/// One stream of a file opened for reading packets (the other streams discarded): what
/// `MovieSegmentCopier` copies from and checks codecs with.
///
/// Not thread-safe: one thread at a time.
final class MovieSourceStream {
    private var context: UnsafeMutablePointer<AVFormatContext>?
    let stream: UnsafeMutablePointer<AVStream>
    let index: Int32

    init(url: URL, track: MovieTrackInfo) throws(MovieReaderError) {
        let context = try MovieReader.open(url)
        self.context = context
        guard track.index < Int(context.pointee.nb_streams), let stream = context.pointee.streams[track.index] else {
            var closing: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&closing)
            throw .cannotParse("\(url.lastPathComponent): no stream \(track.index)")
        }
        for other in 0..<Int(context.pointee.nb_streams) where other != track.index {
            context.pointee.streams[other]?.pointee.discard = AVDISCARD_ALL
        }
        self.stream = stream
        index = Int32(track.index)
    }

    deinit { avformat_close_input(&context) }

    var timeBase: AVRational { stream.pointee.time_base }
    var parameters: AVCodecParameters { stream.pointee.codecpar.pointee }

    /// A time in the stream's units.
    func ticks(_ time: CMTime) -> Int64 {
        av_rescale_q(time.value, AVRational(num: 1, den: time.timescale), timeBase)
    }

    /// Moves to the keyframe at or before `ticks`; false when the file cannot seek (it is
    /// then read from its start).
    @discardableResult
    func seek(toKeyframeAtOrBefore ticks: Int64) -> Bool {
        guard let context else { return false }
        return avformat_seek_file(context, index, Int64.min, ticks, ticks, 0) >= 0
    }

    /// Reads the stream's next packet into `packet`: false at the end of the file. Throws
    /// for a read error other than the end.
    func read(into packet: UnsafeMutablePointer<AVPacket>) throws(MovieReaderError) -> Bool {
        guard let context else { return false }
        while true {
            let read = av_read_frame(context, packet)
            if read == cffmpeg_eof() { return false }
            guard read >= 0 else { throw .cannotParse(MovieWriterError.message(read)) }
            if packet.pointee.stream_index == index { return true }
            av_packet_unref(packet)
        }
    }

    /// Whether two streams' packets can follow each other in one track unchanged: the same
    /// codec, picture size and pixel format or sample rate and channels, and the same
    /// parameter sets (the sample description is written once).
    func matches(_ other: MovieSourceStream) -> String? {
        let a = parameters, b = other.parameters
        let name = String(cString: avcodec_get_name(a.codec_id))
        guard a.codec_id == b.codec_id else { return "\(name) and \(String(cString: avcodec_get_name(b.codec_id))) in one track" }
        if a.codec_type == AVMEDIA_TYPE_VIDEO {
            guard a.width == b.width, a.height == b.height else { return "\(a.width)x\(a.height) and \(b.width)x\(b.height) pictures in one track" }
            guard a.format == b.format else { return "pictures of different pixel formats in one track" }
        } else if a.codec_type == AVMEDIA_TYPE_AUDIO {
            guard a.sample_rate == b.sample_rate, a.ch_layout.nb_channels == b.ch_layout.nb_channels else {
                return "audio of \(a.sample_rate) Hz, \(a.ch_layout.nb_channels) channels and \(b.sample_rate) Hz, \(b.ch_layout.nb_channels) channels in one track"
            }
        }
        let left = a.extradata.map { Data(bytes: $0, count: Int(a.extradata_size)) } ?? Data()
        let right = b.extradata.map { Data(bytes: $0, count: Int(b.extradata_size)) } ?? Data()
        guard left == right else { return "\(name) streams with different decoder configurations ('avcC'/'hvcC'/'esds') in one track" }
        return nil
    }
}
