package org.viadsm.consistency.home;

/**
 * Assigns each page of a shared array a home node, whose copy of the page is the master copy: diffs go there and
 * misses are served from there.
 */
public interface HomePolicy
{
    /** Returned by {@link #home(int)} when the home is not decided yet (first touch). */
    int UNDECIDED = -1;

    /**
     * The home of a page.
     *
     * @param page the page index within the array.
     * @return the home node, or {@link #UNDECIDED}.
     */
    int home(int page);
}
