import CFFmpeg
import CaptureCore
import Foundation

/// One stream's packets as libavformat reads them: their presentation times, the bytes
/// they hold and whether each is a sync (key) packet. `AVAssetTrack` answers
/// `totalSampleDataLength`, `samplePresentationTime(forTrackTime:)` and
/// `hasAudioSampleDependencies` from it.
package struct MoviePacketIndex: Sendable, Equatable {
    /// The presentation times of the packets shown, in increasing order.
    package var presentationTimes: [CMTime] = []
    /// The sum of the stream's packet sizes (every packet, shown or not).
    package var totalBytes: Int64 = 0
    /// How many packets are not sync packets (depend on earlier ones to decode).
    package var dependentPackets = 0

    /// Reads the file's packets once (the other streams are discarded unread).
    package init(url: URL, track: MovieTrackInfo) throws(MovieReaderError) {
        let context = try MovieReader.open(url)
        defer {
            var closing: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&closing)
        }
        guard track.index >= 0, track.index < Int(context.pointee.nb_streams), let stream = context.pointee.streams[track.index] else {
            throw .cannotParse("\(url.lastPathComponent): no stream \(track.index)")
        }
        for index in 0..<Int(context.pointee.nb_streams) where index != track.index {
            context.pointee.streams[index]?.pointee.discard = AVDISCARD_ALL
        }
        let base = stream.pointee.time_base
        guard let packet = av_packet_alloc() else { throw .cannotParse("out of memory") }
        var owned: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&owned) }
        var times: [CMTime] = []
        while av_read_frame(context, packet) >= 0 {
            defer { av_packet_unref(packet) }
            guard Int(packet.pointee.stream_index) == track.index else { continue }
            totalBytes += Int64(packet.pointee.size)
            if packet.pointee.flags & AV_PKT_FLAG_KEY == 0 { dependentPackets += 1 }
            // Packets an edit list cuts out are read but never shown.
            guard packet.pointee.flags & AV_PKT_FLAG_DISCARD == 0 else { continue }
            let pts = packet.pointee.pts != Int64.min ? packet.pointee.pts : packet.pointee.dts
            if pts != Int64.min { times.append(MovieReader.time(pts, base)) }
        }
        presentationTimes = times.sorted()
    }

    /// The presentation time of the packet shown at `time`: the latest at or before it,
    /// the first one for a time before it; nil without packets.
    package func presentationTime(at time: CMTime) -> CMTime? {
        guard let first = presentationTimes.first else { return nil }
        var low = 0, high = presentationTimes.count
        // The count of times <= time.
        while low < high {
            let middle = (low + high) / 2
            if presentationTimes[middle] <= time { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? first : presentationTimes[low - 1]
    }
}
