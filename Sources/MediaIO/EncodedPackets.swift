import CFFmpeg

/// Hands each packet the encoder `context` has ready to `emit`, until it wants more input
/// or has given all it holds; the packet is unreferenced after each call. `what` names the
/// step in the error ("receiving an audio packet").
func drainEncodedPackets(
    from context: UnsafeMutablePointer<AVCodecContext>, into packet: UnsafeMutablePointer<AVPacket>, what: String,
    _ emit: (UnsafeMutablePointer<AVPacket>) throws(MovieWriterError) -> Void
) throws(MovieWriterError) {
    while true {
        let received = avcodec_receive_packet(context, packet)
        if received == cffmpeg_eagain() || received == cffmpeg_eof() { return }
        guard received >= 0 else { throw .encoding(received, what) }
        defer { av_packet_unref(packet) }
        try emit(packet)
    }
}
