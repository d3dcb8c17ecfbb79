program ez
  use mpi
  implicit none
  integer :: ierr, me, np, left, right, k, reqs(2), sts(MPI_STATUS_SIZE, 2), st(MPI_STATUS_SIZE)
  integer :: a(100), b(100), s(2), t(2)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  right = mod(me + 1, np)
  left = mod(me + np - 1, np)
  do k = 1, 3
    a = me
    call MPI_Irecv(b, 100, MPI_INTEGER, left, 1, MPI_COMM_WORLD, reqs(1), ierr)
    call MPI_Isend(a, 100, MPI_INTEGER, right, 1, MPI_COMM_WORLD, reqs(2), ierr)
    call MPI_Waitall(2, reqs, sts, ierr)
  end do
  if (mod(me, 2) == 0) then
    call MPI_Send(a, 10, MPI_INTEGER, right, 2, MPI_COMM_WORLD, ierr)
    call MPI_Recv(b, 10, MPI_INTEGER, left, 2, MPI_COMM_WORLD, st, ierr)
  else
    call MPI_Recv(b, 10, MPI_INTEGER, left, 2, MPI_COMM_WORLD, st, ierr)
    call MPI_Send(a, 10, MPI_INTEGER, right, 2, MPI_COMM_WORLD, ierr)
  end if
  s = (/ me, 1 /)
  call MPI_Allreduce(s, t, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Finalize(ierr)
end program ez
