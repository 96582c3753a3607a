import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// What preparation handlers heard, in the order they were called.
final class PreparationLog: @unchecked Sendable {
    struct Call: Equatable {
        let tag: String
        let prepared: Bool
        let code: AVError.Code?
    }

    private let calls = Mutex<[Call]>([])
    private let messages = Mutex<[String]>([])

    var heard: [Call] { calls.withLock { $0 } }
    var errorMessages: [String] { messages.withLock { $0 } }

    func handler(_ tag: String) -> (Bool, (any Error)?) -> Void {
        { prepared, error in
            self.calls.withLock { $0.append(Call(tag: tag, prepared: prepared, code: (error as? AVError)?.code)) }
            if let error { self.messages.withLock { $0.append("\(error)") } }
        }
    }
}

/// `setPreparedPhotoSettingsArray(_:completionHandler:)` as AVCapturePhotoOutput.h describes
/// it: callable before the session runs (and before the output is in one), done once the
/// session runs, deferred to the outermost `commitConfiguration()`, a second call answering
/// the first `false`, the settings persisting across stops, starts and configuration changes.
/// Handlers run on the output's callback queue: `callbackQueue.sync {}` lets every handler
/// already dispatched run, so "not called yet" is asserted without waiting out a timeout.
@Suite("Prepared photo settings", .serialized)
struct PreparedPhotoSettingsTests {
    static func settings() -> AVCapturePhotoSettings {
        let settings = AVCapturePhotoSettings()
        settings.maxPhotoDimensions = PhotoCodecTests.small
        return settings
    }

    /// A session on the simulated camera with `photo` in it, not running.
    static func rig(with photo: AVCapturePhotoOutput) throws -> TestRig {
        let rig = try TestRig(uniqueID: "sim:back-wide", preset: .cif352x288)
        rig.session.addOutput(photo)
        return rig
    }

    @Test func preparingAnOutputInNoSessionDoesNotEndTheProcess() async {
        // The plugin: settings prepared right after the output is made. This trapped
        // with "No active and enabled video connection".
        await #expect(processExitsWith: .success) {
            let photo = AVCapturePhotoOutput()
            photo.setPreparedPhotoSettingsArray([AVCapturePhotoSettings()]) { _, _ in }
            photo.setPreparedPhotoSettingsArray([AVCapturePhotoSettings()])
            photo.callbackQueue.sync {}
        }
    }

    @Test("prepared before the output is in a session: the handler waits for the session to run, then hears true")
    func beforeTheSession() throws {
        let photo = AVCapturePhotoOutput()
        let log = PreparationLog()
        let settings = Self.settings()
        photo.setPreparedPhotoSettingsArray([settings], completionHandler: log.handler("early"))
        let rig = try Self.rig(with: photo)
        defer { rig.stop() }
        photo.callbackQueue.sync {}
        #expect(log.heard.isEmpty, "not running yet: no answer")
        #expect(photo.preparedPhotoSettingsArray.isEmpty, "the list changes when the preparation is done")
        rig.session.startRunning()
        photo.callbackQueue.sync {}
        #expect(log.heard == [.init(tag: "early", prepared: true, code: nil)])
        #expect(photo.preparedPhotoSettingsArray.map(\.uniqueID) == [settings.uniqueID])
    }

    @Test("the async form, called before startRunning, returns true once the session starts")
    func asyncBeforeStartRunning() async throws {
        let photo = AVCapturePhotoOutput()
        let rig = try Self.rig(with: photo)
        defer { rig.stop() }
        let settings = UncheckedSendable(Self.settings())
        let preparation = Task { try await photo.setPreparedPhotoSettingsArray([settings.value]) }
        eventually("the request is recorded") { photo.settingsState.withLock { $0.pendingPreparation != nil } }
        rig.session.startRunning()
        #expect(try await preparation.value)
        #expect(photo.preparedPhotoSettingsArray.map(\.uniqueID) == [settings.value.uniqueID])
    }

    @Test("a second call makes the first call's handler fire at once with prepared == false; the second is done at the start")
    func secondCallSupersedesTheFirst() throws {
        let photo = AVCapturePhotoOutput()
        let rig = try Self.rig(with: photo)
        defer { rig.stop() }
        let log = PreparationLog()
        let first = Self.settings(), second = Self.settings()
        photo.setPreparedPhotoSettingsArray([first], completionHandler: log.handler("first"))
        photo.setPreparedPhotoSettingsArray([second], completionHandler: log.handler("second"))
        photo.callbackQueue.sync {}
        #expect(log.heard == [.init(tag: "first", prepared: false, code: nil)], "the first at once, with no error; the second waits")
        rig.session.startRunning()
        photo.callbackQueue.sync {}
        #expect(log.heard == [.init(tag: "first", prepared: false, code: nil), .init(tag: "second", prepared: true, code: nil)])
        #expect(photo.preparedPhotoSettingsArray.map(\.uniqueID) == [second.uniqueID])
    }

    @Test("the async form returns false when a later call supersedes it")
    func asyncSuperseded() async throws {
        let photo = AVCapturePhotoOutput()
        let rig = try Self.rig(with: photo)
        defer { rig.stop() }
        let settings = UncheckedSendable(Self.settings())
        let preparation = Task { try await photo.setPreparedPhotoSettingsArray([settings.value]) }
        eventually("the request is recorded") { photo.settingsState.withLock { $0.pendingPreparation != nil } }
        photo.setPreparedPhotoSettingsArray([Self.settings()], completionHandler: nil)
        #expect(try await preparation.value == false)
    }

    @Test("inside beginConfiguration on a running session the preparation waits for the outermost commitConfiguration")
    func deferredToTheCommit() throws {
        let photo = AVCapturePhotoOutput()
        let rig = try Self.rig(with: photo)
        defer { rig.stop() }
        rig.session.startRunning()
        let log = PreparationLog()
        let settings = Self.settings()
        rig.session.beginConfiguration()
        rig.session.beginConfiguration()
        rig.session.sessionPreset = .vga640x480
        photo.setPreparedPhotoSettingsArray([settings], completionHandler: log.handler("in the transaction"))
        rig.session.commitConfiguration()
        photo.callbackQueue.sync {}
        #expect(log.heard.isEmpty, "an inner commit ends no transaction")
        #expect(photo.preparedPhotoSettingsArray.isEmpty)
        rig.session.commitConfiguration()
        photo.callbackQueue.sync {}
        #expect(log.heard == [.init(tag: "in the transaction", prepared: true, code: nil)])
        #expect(photo.preparedPhotoSettingsArray.map(\.uniqueID) == [settings.uniqueID])
    }

    @Test("prepared settings persist across stops, starts and committed configuration changes; the handler fires once")
    func persistence() throws {
        let photo = AVCapturePhotoOutput()
        let rig = try Self.rig(with: photo)
        defer { rig.stop() }
        rig.session.startRunning()
        let log = PreparationLog()
        let settings = Self.settings()
        photo.setPreparedPhotoSettingsArray([settings], completionHandler: log.handler("once"))
        photo.callbackQueue.sync {}
        #expect(log.heard == [.init(tag: "once", prepared: true, code: nil)], "running: done at once")
        rig.session.stopRunning()
        #expect(photo.preparedPhotoSettingsArray.map(\.uniqueID) == [settings.uniqueID])
        rig.session.startRunning()
        rig.session.beginConfiguration()
        rig.session.sessionPreset = .vga640x480
        rig.session.commitConfiguration()
        rig.session.removeOutput(photo)
        rig.session.addOutput(photo)
        photo.callbackQueue.sync {}
        #expect(photo.preparedPhotoSettingsArray.map(\.uniqueID) == [settings.uniqueID])
        #expect(log.heard.count == 1)
    }

    @Test("settings the output cannot take: false and AVError.unsupportedOutputSettings, no raise; good settings are not used up")
    func unsupportedSettings() throws {
        let rig = try PhotoRig(preset: .cif352x288, settle: 3)
        defer { rig.stop() }
        let photo = rig.photoOutput
        let log = PreparationLog()
        let good = Self.settings()
        photo.setPreparedPhotoSettingsArray([good], completionHandler: log.handler("good"))
        let depth = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_DepthFloat32])
        photo.setPreparedPhotoSettingsArray([Self.settings(), depth], completionHandler: log.handler("depth"))
        photo.callbackQueue.sync {}
        #expect(log.heard == [.init(tag: "good", prepared: true, code: nil), .init(tag: "depth", prepared: false, code: .unsupportedOutputSettings)])
        #expect(log.errorMessages.first?.contains("Unsupported pixel format") == true)
        #expect(photo.preparedPhotoSettingsArray.map(\.uniqueID) == [good.uniqueID], "a failed preparation changes nothing")
        let (taken, _) = try rig.take(good)
        #expect(taken != nil, "preparing did not use the settings up")
        photo.setPreparedPhotoSettingsArray([])
        #expect(photo.preparedPhotoSettingsArray.isEmpty)
    }
}
