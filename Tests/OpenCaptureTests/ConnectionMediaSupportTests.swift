import Foundation
import Testing

@testable import OpenCapture

/// Which connections can be rotated and mirrored: video ones, not audio or metadata ones.
@Suite("Connection orientation and mirroring support by media type", .serialized)
struct ConnectionMediaSupportTests {
    /// A session with a camera and a microphone feeding a movie file output (a video and an
    /// audio connection), an audio data output and a metadata output; nothing runs. The
    /// caller keeps the session alive: it owns the connections.
    static func session() throws -> (AVCaptureSession, AVCaptureMovieFileOutput, AVCaptureAudioDataOutput, AVCaptureMetadataOutput) {
        let session = AVCaptureSession()
        let camera = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        let microphone = try #require(AVCaptureDevice(uniqueID: "sim:microphone"))
        session.beginConfiguration()
        session.addInput(try AVCaptureDeviceInput(device: camera))
        session.addInput(try AVCaptureDeviceInput(device: microphone))
        let movie = AVCaptureMovieFileOutput(), audio = AVCaptureAudioDataOutput(), metadata = AVCaptureMetadataOutput()
        for output in [movie, audio, metadata] as [AVCaptureOutput] {
            #expect(session.canAddOutput(output))
            session.addOutput(output)
        }
        session.commitConfiguration()
        return (session, movie, audio, metadata)
    }

    @Test("video connections support orientation, rotation and mirroring")
    func videoConnection() throws {
        let (session, movie, _, _) = try Self.session()
        defer { withExtendedLifetime(session) {} }  // the session owns the connections
        let video = try #require(movie.connection(with: .video))
        #expect(video.isVideoOrientationSupported && video.isVideoMirroringSupported)
        #expect(video.isVideoRotationAngleSupported(90))
        video.videoOrientation = .portrait
        #expect(video.videoRotationAngle == 90)
        video.automaticallyAdjustsVideoMirroring = false
        video.isVideoMirrored = true
        #expect(video.isVideoMirrored)
    }

    @Test("audio and metadata connections support none of them, and the checked setters say so")
    func audioAndMetadataConnections() throws {
        let (session, movie, audioOutput, metadataOutput) = try Self.session()
        defer { withExtendedLifetime(session) {} }
        let connections = [
            try #require(movie.connection(with: .audio)), try #require(audioOutput.connection(with: .audio)),
            try #require(metadataOutput.connection(with: .metadataObject)),
        ]
        for connection in connections {
            #expect(!connection.isVideoOrientationSupported)
            #expect(!connection.isVideoMirroringSupported)
            #expect(!connection.isVideoRotationAngleSupported(0) && !connection.isVideoRotationAngleSupported(90))
            #expect(connection.videoRotationAngle == 0 && !connection.isVideoMirrored)
            let rotation = #expect(throws: AVCaptureException.self) { try connection.setVideoRotationAngle(90) }
            #expect(rotation?.name == .invalidArgument)
            #expect(rotation?.reason.contains("isVideoOrientationSupported") == true)
            connection.automaticallyAdjustsVideoMirroring = false
            let mirroring = #expect(throws: AVCaptureException.self) { try connection.setVideoMirrored(true) }
            #expect(mirroring?.reason.contains("isVideoMirroringSupported") == true)
        }
    }
}

/// Rotating or mirroring a connection without video ends the process, as on iOS.
@Suite("Connection orientation and mirroring misuse ends the process")
struct ConnectionMediaSupportExitTests {
    static func message(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    @Test func videoOrientationOnAnAudioConnection() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let (session, movie, _, _) = try ConnectionMediaSupportTests.session()
            movie.connection(with: .audio)?.videoOrientation = .portrait
            withExtendedLifetime(session) {}
        }
        #expect(Self.message(result).contains(
            "'NSInvalidArgumentException', reason: '*** -[AVCaptureConnection setVideoOrientation:] Video orientation is not supported on this connection"))
    }

    @Test func videoRotationAngleOnAMetadataConnection() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let (session, _, _, metadata) = try ConnectionMediaSupportTests.session()
            metadata.connection(with: .metadataObject)?.videoRotationAngle = 90
            withExtendedLifetime(session) {}
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureConnection setVideoRotationAngle:]"))
    }

    @Test func mirroringAnAudioConnection() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let (session, _, audio, _) = try ConnectionMediaSupportTests.session()
            let connection = audio.connection(with: .audio)
            connection?.automaticallyAdjustsVideoMirroring = false
            connection?.isVideoMirrored = true
            withExtendedLifetime(session) {}
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureConnection setVideoMirrored:] Mirroring is not supported on this connection"))
    }
}
