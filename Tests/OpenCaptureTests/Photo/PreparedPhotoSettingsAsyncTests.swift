import Foundation
import Testing
import TestSupport

@testable import OpenCapture

/// The Swift async form Apple's SDK imports from `setPreparedPhotoSettingsArray:completionHandler:`
/// (`func setPreparedPhotoSettingsArray(_:) async throws -> Bool`): it returns the handler's
/// `prepared` and throws the handler's error. Each await is started in a task; the request
/// being recorded (`pendingPreparation`) is what the test waits for before it acts.
@Suite("Prepared photo settings, async form", .serialized)
struct PreparedPhotoSettingsAsyncTests {
    /// Whether the output holds a request for exactly `settings`, not answered yet.
    static func isPending(_ photo: AVCapturePhotoOutput, _ settings: AVCapturePhotoSettings) -> Bool {
        photo.settingsState.withLock { $0.pendingPreparation?.settings.map(\.uniqueID) == [settings.uniqueID] }
    }

    @Test("awaited before the output is in a session: returns true once the output's session starts running")
    func awaitedBeforeTheSession() async throws {
        let photo = AVCapturePhotoOutput()
        let settings = UncheckedSendable(PreparedPhotoSettingsTests.settings())
        let preparation = Task { try await photo.setPreparedPhotoSettingsArray([settings.value]) }
        eventually("the request is recorded") { Self.isPending(photo, settings.value) }
        let rig = try PreparedPhotoSettingsTests.rig(with: photo)
        defer { rig.stop() }
        photo.callbackQueue.sync {}
        #expect(Self.isPending(photo, settings.value), "in a session that does not run: still waiting")
        #expect(photo.preparedPhotoSettingsArray.isEmpty)
        rig.session.startRunning()
        #expect(try await preparation.value)
        #expect(photo.preparedPhotoSettingsArray.map(\.uniqueID) == [settings.value.uniqueID])
    }

    @Test("a second call makes the first await return false before the session runs; the second returns true at the start")
    func secondCallReturnsTheFirstFalse() async throws {
        let photo = AVCapturePhotoOutput()
        let rig = try PreparedPhotoSettingsTests.rig(with: photo)
        defer { rig.stop() }
        let first = UncheckedSendable(PreparedPhotoSettingsTests.settings())
        let second = UncheckedSendable(PreparedPhotoSettingsTests.settings())
        let firstPreparation = Task { try await photo.setPreparedPhotoSettingsArray([first.value]) }
        eventually("the first request is recorded") { Self.isPending(photo, first.value) }
        let secondPreparation = Task { try await photo.setPreparedPhotoSettingsArray([second.value]) }
        // Awaited while the session is stopped: only the second call can have answered it.
        #expect(try await firstPreparation.value == false)
        #expect(!rig.session.isRunning)
        #expect(Self.isPending(photo, second.value))
        rig.session.startRunning()
        #expect(try await secondPreparation.value)
        #expect(photo.preparedPhotoSettingsArray.map(\.uniqueID) == [second.value.uniqueID])
    }

    @Test("settings the output cannot take: the await throws the handler's AVError.unsupportedOutputSettings, nothing changes")
    func throwsTheHandlersError() async throws {
        let rig = try PhotoRig(preset: .cif352x288, settle: 3)
        defer { rig.stop() }
        let photo = rig.photoOutput
        let good = UncheckedSendable(PreparedPhotoSettingsTests.settings())
        #expect(try await photo.setPreparedPhotoSettingsArray([good.value]))
        let depth = UncheckedSendable(AVCapturePhotoSettings(format: [
            kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_DepthFloat32,
        ]))
        do {
            let prepared = try await photo.setPreparedPhotoSettingsArray([depth.value])
            Issue.record("returned \(prepared) instead of throwing")
        } catch let error as AVError {
            #expect(error.code == .unsupportedOutputSettings)
            #expect("\(error)".contains("Unsupported pixel format"))
        }
        #expect(photo.preparedPhotoSettingsArray.map(\.uniqueID) == [good.value.uniqueID], "a failed preparation changes nothing")
    }
}
