! fortran_mpi.f90 - `use mpi` (mpif.h's symbols) with non-blocking calls
! completed in every way, for test_tracer: on P ranks in a ring, R rounds
! of Isend to the right ((r+1) integers) and to the left (2(r+1) integers)
! with Irecvs from both neighbours, completed by Waitall with
! MPI_STATUSES_IGNORE, by Waitany, and by Test loops with
! MPI_STATUS_IGNORE; then one blocking Send of 3 integers to the right
! against an Irecv and Wait; an Allreduce with MPI_IN_PLACE. Checks what it
! received (error stop on a wrong value).
program fortran_mpi
  use mpi
  implicit none
  integer, parameter :: rounds = 3
  integer :: ierr, me, np, left, right, round, k, idx, done
  integer :: reqs(4), st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 4)
  integer, allocatable :: to_r(:), to_l(:), from_l(:), from_r(:)
  integer :: three(3), got3(3), sums(2)
  logical :: flag

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  right = mod(me + 1, np)
  left = mod(me + np - 1, np)
  allocate(to_r(me + 1), to_l(2 * (me + 1)), from_l(left + 1), from_r(2 * (right + 1)))
  do round = 1, rounds
    to_r = me * 100 + round
    to_l = me * 1000 + round
    call MPI_Irecv(from_l, left + 1, MPI_INTEGER, left, 1, MPI_COMM_WORLD, reqs(1), ierr)
    call MPI_Irecv(from_r, 2 * (right + 1), MPI_INTEGER, right, 2, MPI_COMM_WORLD, reqs(2), ierr)
    call MPI_Isend(to_r, me + 1, MPI_INTEGER, right, 1, MPI_COMM_WORLD, reqs(3), ierr)
    call MPI_Isend(to_l, 2 * (me + 1), MPI_INTEGER, left, 2, MPI_COMM_WORLD, reqs(4), ierr)
    select case (round)
    case (1)
      call MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE, ierr)
    case (2)
      do k = 1, 4
        call MPI_Waitany(4, reqs, idx, st, ierr)
        if (idx == 1 .and. st(MPI_SOURCE) /= left) error stop 'Waitany: wrong source'
      end do
    case default
      done = 0
      do while (done < 4)
        done = 0
        do k = 1, 4
          call MPI_Test(reqs(k), flag, MPI_STATUS_IGNORE, ierr)
          if (flag) done = done + 1
        end do
      end do
    end select
    if (any(from_l /= left * 100 + round)) error stop 'wrong data from the left'
    if (any(from_r /= right * 1000 + round)) error stop 'wrong data from the right'
  end do
  three = me
  call MPI_Irecv(got3, 3, MPI_INTEGER, left, 3, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Send(three, 3, MPI_INTEGER, right, 3, MPI_COMM_WORLD, ierr)
  call MPI_Wait(reqs(1), sts(:, 1), ierr)
  if (any(got3 /= left) .or. sts(MPI_TAG, 1) /= 3) error stop 'wrong blocking message'
  sums = (/ me, 1 /)
  call MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (sums(1) /= np * (np - 1) / 2 .or. sums(2) /= np) error stop 'wrong Allreduce'
  deallocate(to_r, to_l, from_l, from_r)
  call MPI_Finalize(ierr)
end program fortran_mpi
