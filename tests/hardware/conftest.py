"""Fixtures for the hardware tests: every test gets its own MockFactory, and gpiozero's global
pin factory is put back as it was, so nothing leaks into other tests."""

from __future__ import annotations

import queue

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin


@pytest.fixture(autouse=True)
def _isolated_gpiozero(monkeypatch):
    # Anything that falls back to gpiozero's default factory gets mock pins, never real ones.
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    saved = Device.pin_factory
    yield
    if Device.pin_factory is not saved:
        if Device.pin_factory is not None:
            Device.pin_factory.close()
        Device.pin_factory = saved


@pytest.fixture
def mock_factory():
    factory = MockFactory()
    yield factory
    factory.reset()
    factory.close()


@pytest.fixture
def pwm_factory():
    """Mock pins that do PWM, as lgpio's on a Pi (for dials that dim)."""
    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.reset()
    factory.close()


class FakeClock:
    """Time that only moves when a test says so."""

    def __init__(self, t: float = 1000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> float:
        self.t += seconds
        return self.t


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def events():
    return queue.Queue()


@pytest.fixture
def panels():
    """A list to put panels in; each is closed after the test."""
    made = []
    yield made
    for panel in made:
        panel.close()


@pytest.fixture
def panel_on(events, clock, panels):
    """A panel on the test's queue and clock, without animation, closed after the test:
    ``panel_on(pinmap, pin_factory)``."""
    from hardware.panel import build_panel

    def make(pinmap, factory):
        panel = build_panel(pinmap, events=events, pin_factory=factory, clock=clock,
                            animate=False)
        panels.append(panel)
        return panel

    return make


@pytest.fixture
def chain_on(panel_on):
    """A panel on a 74HC595 chain of simulated chips: ``chain_on(pinmap, pin_factory)`` gives
    (panel, chips)."""
    from hardware.mockchip import Mock74HC595Chain

    def make(pinmap, factory):
        c = pinmap.chain
        chip = Mock74HC595Chain(factory, data=c.data, clock=c.clock, latch=c.latch)
        return panel_on(pinmap, factory), chip

    return make
