package org.viadsm.via.engine;

import org.viadsm.via.CompletionQueue;
import org.viadsm.via.Nic;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViState;
import org.viadsm.via.descriptor.Descriptor;

/**
 * A VI of an {@link EngineNic}, as {@code createVi} hands it to the user: its two work queues ({@link SendQueue},
 * {@link RecvQueue}) and its connection state machine ({@link ViConnection}, which is also the provider's handle on
 * the VI). Its record and receive ring live in the NIC's shared area.
 * <p>
 * Every call is counted on the NIC while it runs (see {@link EngineNic#close()}) and does the NIC's housekeeping
 * first.
 */
final class EngineVi implements Vi
{
    private final EngineNic nic;
    private final int id;
    private final ViAttributes attributes;
    private final ReliabilityLevel reliability;
    private final int ptagValue;
    private final ViRecord record;
    private final EngineCq sendCq;
    private final EngineCq recvCq;
    private final ViConnection connection;
    private final SendQueue sendQueue;
    private final RecvQueue recvQueue;
    private volatile boolean closed;

    EngineVi(
        final EngineNic nic,
        final int id,
        final ViAttributes attributes,
        final int ptagValue,
        final EngineCq sendCq,
        final EngineCq recvCq)
    {
        this.nic = nic;
        this.id = id;
        this.attributes = new ViAttributes(attributes);
        this.reliability = attributes.reliabilityLevel();
        this.ptagValue = ptagValue;
        this.record = nic.area().viRecord(id);
        this.sendCq = sendCq;
        this.recvCq = recvCq;
        record.initialize(ptagValue, reliability.vipValue(),
            RegistrationLayout.flags(attributes.enableRdmaWrite(), attributes.enableRdmaRead()),
            attributes.maxTransferSize(), null == sendCq ? -1 : sendCq.id(), null == recvCq ? -1 : recvCq.id());
        final RecvRing ring = nic.area().recvRing(id);
        this.connection = new ViConnection(nic, this, record, ring);
        this.recvQueue = new RecvQueue(nic, this, recvCq, record, ring);
        this.sendQueue = new SendQueue(nic, this, sendCq, connection);
    }

    @Override
    public int id()
    {
        return id;
    }

    @Override
    public Nic nic()
    {
        return nic;
    }

    @Override
    public ViAttributes attributes()
    {
        return new ViAttributes(attributes);
    }

    @Override
    public ViState state()
    {
        enterControl();
        try
        {
            return ViRecordLayout.viState(record.state());
        }
        finally
        {
            nic.exitCall();
        }
    }

    @Override
    public ViAttributes remoteAttributes()
    {
        return connection.remoteAttributes();
    }

    @Override
    public String remoteAddress()
    {
        return connection.remoteAddress();
    }

    @Override
    public void connectRequest(final String remoteAddress, final long discriminator, final long timeoutNs)
    {
        enterControl();
        try
        {
            nic.connector().connectRequest(connection, remoteAddress, discriminator, timeoutNs);
        }
        finally
        {
            nic.exitCall();
        }
    }

    @Override
    public void connectPeerRequest(final String remoteAddress, final long discriminator, final long timeoutNs)
    {
        enterControl();
        try
        {
            nic.connector().connectPeerRequest(connection, remoteAddress, discriminator, timeoutNs);
        }
        finally
        {
            nic.exitCall();
        }
    }

    @Override
    public boolean connectPeerDone()
    {
        enterControl();
        try
        {
            return nic.connector().connectPeerDone(connection);
        }
        finally
        {
            nic.exitCall();
        }
    }

    @Override
    public void connectPeerWait(final long timeoutNs)
    {
        enterControl();
        try
        {
            nic.connector().connectPeerWait(connection, timeoutNs);
        }
        finally
        {
            nic.exitCall();
        }
    }

    @Override
    public void disconnect()
    {
        if (closed || !nic.enterCall())
        {
            return;
        }
        try
        {
            nic.housekeeper().onCall(0);
            connection.tearDown();
        }
        finally
        {
            nic.exitCall();
        }
    }

    @Override
    public void postSend(final Descriptor descriptor)
    {
        checkOpen();
        sendQueue.enter();
        try
        {
            sendQueue.post(descriptor);
        }
        finally
        {
            sendQueue.exit();
        }
    }

    @Override
    public Descriptor sendDone()
    {
        checkOpen();
        final Descriptor completed = sendQueue.takeCompleted();
        if (null != completed)
        {
            return completed;
        }
        sendQueue.enter();
        try
        {
            return sendQueue.done();
        }
        finally
        {
            sendQueue.exit();
        }
    }

    @Override
    public Descriptor sendWait(final long timeoutNs)
    {
        sendQueue.checkNoCq();
        checkOpen();
        final Descriptor completed = sendQueue.takeCompleted();
        if (null != completed)
        {
            return completed;
        }
        sendQueue.enter();
        try
        {
            return sendQueue.await(timeoutNs);
        }
        finally
        {
            sendQueue.exit();
        }
    }

    @Override
    public void postRecv(final Descriptor descriptor)
    {
        checkOpen();
        recvQueue.enter();
        try
        {
            recvQueue.post(descriptor);
        }
        finally
        {
            recvQueue.exit();
        }
    }

    @Override
    public Descriptor recvDone()
    {
        checkOpen();
        recvQueue.enter();
        try
        {
            return recvQueue.done();
        }
        finally
        {
            recvQueue.exit();
        }
    }

    @Override
    public Descriptor recvWait(final long timeoutNs)
    {
        recvQueue.checkNoCq();
        checkOpen();
        recvQueue.enter();
        try
        {
            return recvQueue.await(timeoutNs);
        }
        finally
        {
            recvQueue.exit();
        }
    }

    @Override
    public CompletionQueue sendCq()
    {
        return sendCq;
    }

    @Override
    public CompletionQueue recvCq()
    {
        return recvCq;
    }

    @Override
    public void close()
    {
        if (closed || !nic.enterCall())
        {
            return;
        }
        try
        {
            destroy();
        }
        finally
        {
            nic.exitCall();
        }
    }

    /**
     * Destroys the VI from inside a counted call: its own, or the NIC's close.
     */
    void destroy()
    {
        if (closed)
        {
            return;
        }
        connection.tearDown();
        nic.queues().destroyVi(this);
        closed = true;
        sendQueue.cancel();
        recvQueue.cancel();
        sendQueue.returnAll();
        recvQueue.returnAll();
    }

    @Override
    public String toString()
    {
        String state = "DESTROYED";
        if (!closed && nic.enterCall())
        {
            try
            {
                final int raw = record.state();
                state = ViRecordLayout.STATE_FREE == raw ? "FREE" : ViRecordLayout.viState(raw).name();
            }
            finally
            {
                nic.exitCall();
            }
        }
        return "Vi{id=" + id + ", nic=" + nic.address() + ", state=" + state + '}';
    }

    ReliabilityLevel reliabilityLevel()
    {
        return reliability;
    }

    ViRecord record()
    {
        return record;
    }

    ViConnection connection()
    {
        return connection;
    }

    SendQueue sendQueue()
    {
        return sendQueue;
    }

    RecvQueue recvQueue()
    {
        return recvQueue;
    }

    int ptagValue()
    {
        return ptagValue;
    }

    EngineCq sendCqInternal()
    {
        return sendCq;
    }

    EngineCq recvCqInternal()
    {
        return recvCq;
    }

    boolean isClosed()
    {
        return closed;
    }

    void wakeWaiters()
    {
        recvQueue.slot.wake();
        sendQueue.slot.wake();
    }

    /**
     * Enters a control call of this VI (state, connections): checks it is not destroyed, counts the call on the NIC
     * and does the housekeeping. The caller leaves with {@code nic.exitCall()} in a finally.
     */
    private void enterControl()
    {
        checkOpen();
        nic.enterControl();
        try
        {
            nic.housekeeper().onCall(0);
        }
        catch (final Throwable ex)
        {
            nic.exitCall();
            throw ex;
        }
    }

    private void checkOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("VI " + id + " of " + nic.address() + " is destroyed");
        }
    }
}
