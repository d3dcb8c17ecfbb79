! fortran_f08.f90 - `use mpi_f08` for test_tracer: on P ranks in a ring, two
! MPI_Sendrecv rounds of (r+2) doubles to the right (one with
! MPI_STATUS_IGNORE, one with a status), one Isend of 5 integers to the
! left against an Irecv, completed by Waitall with MPI_STATUSES_IGNORE;
! an Allreduce of 3 doubles with MPI_IN_PLACE and a Bcast of 4 integers
! from rank 1. Checks what it received (error stop on a wrong value).
program fortran_f08
  use mpi_f08
  implicit none
  integer :: me, np, left, right, round
  double precision, allocatable :: out(:), in(:)
  double precision :: v(3)
  integer :: five(5), got5(5), four(4)
  type(MPI_Status) :: st
  type(MPI_Request) :: reqs(2)

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, me)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  right = mod(me + 1, np)
  left = mod(me + np - 1, np)
  allocate(out(me + 2), in(left + 2))
  do round = 1, 2
    out = me + 0.5d0 * round
    if (round == 1) then
      call MPI_Sendrecv(out, me + 2, MPI_DOUBLE_PRECISION, right, 7, in, left + 2, &
                        MPI_DOUBLE_PRECISION, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    else
      call MPI_Sendrecv(out, me + 2, MPI_DOUBLE_PRECISION, right, 7, in, left + 2, &
                        MPI_DOUBLE_PRECISION, left, 7, MPI_COMM_WORLD, st)
      if (st%MPI_SOURCE /= left) error stop 'Sendrecv: wrong source'
    end if
    if (any(in /= left + 0.5d0 * round)) error stop 'Sendrecv: wrong data'
  end do
  five = me
  call MPI_Irecv(got5, 5, MPI_INTEGER, right, 9, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(five, 5, MPI_INTEGER, left, 9, MPI_COMM_WORLD, reqs(2))
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
  if (any(got5 /= right)) error stop 'Isend: wrong data'
  v = (/ dble(me), 1d0, 2d0 /)
  call MPI_Allreduce(MPI_IN_PLACE, v, 3, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
  if (v(1) /= np * (np - 1) / 2 .or. v(2) /= np) error stop 'wrong Allreduce'
  four = me
  call MPI_Bcast(four, 4, MPI_INTEGER, 1, MPI_COMM_WORLD)
  if (any(four /= 1)) error stop 'wrong Bcast'
  deallocate(out, in)
  call MPI_Finalize()
end program fortran_f08
