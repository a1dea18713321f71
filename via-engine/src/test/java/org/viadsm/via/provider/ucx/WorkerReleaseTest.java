package org.viadsm.via.provider.ucx;

import java.util.ArrayList;
import java.util.List;

import org.agrona.CloseHelper;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The destroy of a closing NIC's worker runs every step whichever fails, releasing the NIC's slot last, and reports
 * the failures once: the first, with the later ones suppressed. The transport runs its steps through Agrona's
 * {@link CloseHelper#closeAll(AutoCloseable...)}; these cases hold it to that contract.
 */
class WorkerReleaseTest
{
    @Test
    void shouldRunEveryStepAndThrowTheFirstFailureWithTheOthersSuppressed()
    {
        final List<String> ran = new ArrayList<>();
        final IllegalStateException first = new IllegalStateException("worker");
        final IllegalArgumentException second = new IllegalArgumentException("context");
        final IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> CloseHelper.closeAll(
            () ->
            {
                ran.add("worker");
                throw first;
            },
            () -> ran.add("memory"),
            () ->
            {
                ran.add("context");
                throw second;
            },
            () -> ran.add("arena"),
            () -> ran.add("slot")));
        assertSame(first, thrown);
        assertArrayEquals(new Throwable[] {second}, thrown.getSuppressed());
        assertEquals(List.of("worker", "memory", "context", "arena", "slot"), ran);
    }

    @Test
    void shouldRunEveryStepInOrderWhenNoneFails()
    {
        final List<String> ran = new ArrayList<>();
        CloseHelper.closeAll(() -> ran.add("worker"), () -> ran.add("slot"));
        assertEquals(List.of("worker", "slot"), ran);
    }
}
