// AVUtilities.h and CABase.h's CACurrentMediaTime, spelled as iOS code spells them.
import AVFoundation
import CoreMedia
import Foundation
import QuartzCore
import Testing

@Suite("AVUtilities and CABase spelling")
struct AVUtilitiesSpellingTests {
    @Test("AVMakeRect letterboxes and pillarboxes, centred")
    func makeRect() {
        let wide: CGRect = AVMakeRect(aspectRatio: CGSize(width: 16, height: 9), insideRect: CGRect(x: 0, y: 0, width: 320, height: 320))
        #expect(wide == CGRect(x: 0, y: 70, width: 320, height: 180))
        let tall = AVMakeRect(aspectRatio: CGSize(width: 3, height: 4), insideRect: CGRect(x: 10, y: 10, width: 400, height: 200))
        #expect(tall == CGRect(x: 135, y: 10, width: 150, height: 200))
    }

    @Test("CACurrentMediaTime reads the host clock that stamps sample buffers")
    func mediaTime() {
        let before = CMTimeGetSeconds(CMClockGetTime(CMClockGetHostTimeClock()))
        let now: CFTimeInterval = CACurrentMediaTime()
        let after = CMTimeGetSeconds(CMClockGetTime(CMClockGetHostTimeClock()))
        #expect(before <= now && now <= after)
    }
}
