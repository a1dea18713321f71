package org.viadsm.consistency.diff;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class TwinPoolTest
{
    @Test
    void shouldRecycleSlotsAndGrowOnlyWhenAllAreInUse()
    {
        try (TwinPool pool = new TwinPool(4096))
        {
            final int a = pool.acquire();
            final int b = pool.acquire();
            assertNotEquals(a, b);
            assertEquals(2, pool.inUse());
            assertEquals(64L * 4096, pool.capacityBytes());
            pool.release(a);
            assertEquals(a, pool.acquire());
            for (int i = 0; i < 62; i++)
            {
                pool.acquire();
            }
            assertEquals(64L * 4096, pool.capacityBytes());
            pool.acquire();
            assertEquals(128L * 4096, pool.capacityBytes());
            pool.buffer(b).putLong(pool.offset(b), 5);
            assertEquals(5, pool.buffer(b).getLong(pool.offset(b)));
        }
    }
}
