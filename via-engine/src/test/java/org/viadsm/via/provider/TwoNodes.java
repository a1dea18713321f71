package org.viadsm.via.provider;

import org.junit.jupiter.api.AfterEach;

/**
 * Base of the provider tests: two nodes, or a connected pair, closed after each test.
 */
abstract class TwoNodes
{
    Node a;
    Node b;
    Pair pair;

    void nodes(final String scheme)
    {
        a = new Node(Providers.address(scheme));
        b = new Node(Providers.address(scheme));
    }

    @AfterEach
    void closeNodes()
    {
        if (null != pair)
        {
            pair.close();
        }
        if (null != a)
        {
            a.close();
        }
        if (null != b)
        {
            b.close();
        }
    }
}
