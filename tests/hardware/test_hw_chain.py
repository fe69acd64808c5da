"""The 74HC595 chain as a gpiozero pin factory, checked against the bit stream on the mock pins."""

from __future__ import annotations

import pytest
from gpiozero import LED, PWMLED, DigitalOutputDevice, LEDBarGraph
from gpiozero.exc import GPIOPinInUse, PinInvalidFunction, PinInvalidPin, PinPWMUnsupported
from hw_helpers import sent_words

from hardware.mockchip import Mock74HC595Chain
from hardware.shiftreg import ShiftRegisterFactory

DATA, CLOCK, LATCH = 17, 27, 22


@pytest.fixture
def chain(mock_factory):
    chip = Mock74HC595Chain(mock_factory, data=DATA, clock=CLOCK, latch=LATCH, chips=4)
    sr = ShiftRegisterFactory(DATA, CLOCK, LATCH, chips=4, pin_factory=mock_factory)
    yield sr, chip
    sr.close()


def fresh_trace(chip, mock_factory):
    level = bool(mock_factory.pin(DATA).state)
    chip.trace.clear()
    return level


def test_starts_dark_with_one_full_word(mock_factory, chain):
    sr, chip = chain
    words = sent_words(chip.trace)
    assert words == [(False,) * 32]
    assert chip.outputs == (False,) * 32 and sr.outputs == (False,) * 32


def test_led_on_chain_output_sends_the_right_bits(mock_factory, chain):
    sr, chip = chain
    led = LED(9, pin_factory=sr)
    level = fresh_trace(chip, mock_factory)
    led.on()
    (word,) = sent_words(chip.trace, level)
    assert len(word) == 32
    assert [i for i, bit in enumerate(word) if bit] == [9]
    assert chip.outputs == word
    assert led.is_lit and sr.outputs[9]
    led.off()
    assert not any(chip.outputs)


def test_first_bit_sent_is_the_last_output(mock_factory, chain):
    sr, chip = chain
    led = LED(31, pin_factory=sr)
    led.on()
    samples = []
    data = False
    for line, level in chip.trace:
        data = level if line == "data" else data
        if line == "clock" and level:
            samples.append(data)
    last_word = samples[-32:]
    assert last_word[0] is True and not any(last_word[1:])


def test_bar_graph_on_chain_and_batching(mock_factory, chain):
    sr, chip = chain
    bars = [LEDBarGraph(*range(5 * s, 5 * s + 5), pin_factory=sr) for s in range(6)]
    level = fresh_trace(chip, mock_factory)
    latches = chip.latches
    with sr.batch():
        for s, bar in enumerate(bars):
            bar.lit_count = s
    assert chip.latches == latches + 1  # one shift-out for the whole update
    (word,) = sent_words(chip.trace, level)
    for s in range(6):
        assert word[5 * s: 5 * s + 5] == tuple(i < s for i in range(5))
    assert word[30:] == (False, False)
    # outside a batch every change is shifted out at once: five candles, five words
    bars[0].value = 1
    assert chip.latches == latches + 1 + 5 and chip.outputs[:5] == (True,) * 5


def test_unchanged_write_sends_nothing(mock_factory, chain):
    sr, chip = chain
    led = LED(3, pin_factory=sr)
    led.on()
    latches = chip.latches
    led.on()
    with sr.batch():
        led.on()
    assert chip.latches == latches


def test_chain_pins_refuse_what_a_595_cannot_do(mock_factory, chain):
    sr, _chip = chain
    kept = LED(4, pin_factory=sr)
    with pytest.raises(GPIOPinInUse):
        LED(4, pin_factory=sr)
    with pytest.raises(PinInvalidPin, match="0 to 31"):
        LED(32, pin_factory=sr)
    with pytest.raises(PinInvalidFunction):
        sr.pin(5).function = "input"
    with pytest.raises(PinPWMUnsupported):
        PWMLED(6, pin_factory=sr)
    assert not kept.closed


def test_chain_lines_are_gpiozero_devices_and_are_released(mock_factory, chain):
    sr, chip = chain
    with pytest.raises(GPIOPinInUse):
        DigitalOutputDevice(CLOCK, pin_factory=mock_factory)
    led = LED(0, pin_factory=sr)
    led.on()
    assert chip.outputs[0]
    sr.close()
    assert chip.outputs == (False,) * 32  # closing darkens everything
    DigitalOutputDevice(CLOCK, pin_factory=mock_factory).close()


def test_chip_count_is_checked(mock_factory):
    with pytest.raises(ValueError, match="1 to 8"):
        ShiftRegisterFactory(DATA, CLOCK, LATCH, chips=9, pin_factory=mock_factory)


def test_smaller_chain(mock_factory):
    chip = Mock74HC595Chain(mock_factory, data=5, clock=6, latch=13, chips=2)
    sr = ShiftRegisterFactory(5, 6, 13, chips=2, pin_factory=mock_factory)
    try:
        led = LED(15, pin_factory=sr)
        led.on()
        word = sent_words(chip.trace)[-1]
        assert len(word) == 16 and word[15] and not any(word[:15])
        assert chip.outputs == word
    finally:
        sr.close()
